// The workspace fixture every scenario gets a fresh copy of, and the model scripts
// (DESIGN §6: planning turns answer a JSON array of task strings, acting turns exactly one
// tool call) in the turn format of tests/llm/fake_openai.py.

export const GREET = [
  "def greet(name):",
  '    return "Hello, " + name',
  "",
  "",
  "def shout(name):",
  "    return greet(name).upper()",
  "",
].join("\n");

/** A small Python project: modules that import each other (for the dependency graph). */
export const WORKSPACE = {
  "greet.py": GREET,
  "app.py": "from greet import greet, shout\nfrom shop.pricing import total\n\n\ndef main():\n    print(greet(\"world\"), shout(\"you\"), total([1, 2]))\n",
  "shop/__init__.py": "",
  "shop/pricing.py": "from shop.tax import rate\n\n\ndef total(prices):\n    return sum(prices) * (1 + rate())\n",
  "shop/tax.py": "def rate():\n    return 0.2\n",
};

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

export const plan = (...tasks) => ({ content: JSON.stringify(tasks), usage });
export const call = (id, name, args, extra = {}) => ({
  tool_calls: [{ id, name, arguments: JSON.stringify(args) }],
  usage,
  ...extra,
});

export const EDIT = { path: "greet.py", old: '"Hello, "', new: '"Hi, "' };

/** Plan one task, propose EDIT, finish with `summary`, then nothing more to do. */
export function editScript(summary) {
  return [plan("Edit greet.py"), call("call_edit", "edit_file", EDIT), call("call_finish", "finish", { summary }), plan()];
}

/** The tool message the model got for tool call `id` (in any later request), or undefined. */
export function toolMessage(requests, id) {
  for (const request of requests) {
    const found = (request.messages || []).find((m) => m.role === "tool" && m.tool_call_id === id);
    if (found) return typeof found.content === "string" ? found.content : JSON.stringify(found.content);
  }
  return undefined;
}

/** Every message text of a request, joined (to look for the goal and context). */
export function requestText(request) {
  return (request.messages || []).map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""))).join("\n");
}
