import * as assert from "node:assert/strict";
import type { AgentEvent, AgentStatusResult, ProposalInfo } from "../../src/protocol";
import { outcomeMessage, progressMessage, statusText } from "../../src/runs/format";
import { RunStore, type RunInfo } from "../../src/runs/runStore";

function store(): { runs: RunStore; seen: string[]; tick: () => void } {
  let t = 1_000;
  const runs = new RunStore(() => t);
  const seen: string[] = [];
  runs.onDidChange((run) => seen.push(`${run.runId}:${run.status}`));
  return { runs, seen, tick: () => (t += 100) };
}

const R = "run-1";
const USAGE = { promptTokens: 1200, completionTokens: 80, modelSeconds: 4.5, contextWindow: 8192, contextUsed: 900 };
const proposal = (status: ProposalInfo["status"], comment: string | null = null): ProposalInfo => ({
  id: "prop-1",
  runId: R,
  uri: "file:///ws/a.py",
  title: "Edit a.py",
  diff: "",
  edit: {},
  hunks: [],
  status,
  comment,
});

/** A run as the server reports it (agent/agent.py, agent/loop.py). */
const script: AgentEvent[] = [
  { runId: R, kind: "status", status: "running", goal: "Add tests" },
  { runId: R, kind: "status", status: "running", phase: "planning", steps: 0 },
  { runId: R, kind: "task", index: 0, title: "Read a.py", status: "pending" },
  { runId: R, kind: "task", index: 1, title: "Write the test", status: "pending" },
  { runId: R, kind: "task", index: 0, title: "Read a.py", status: "running" },
  { runId: R, kind: "thought", task: 0, text: "Let me read it" },
  { runId: R, kind: "tool_call", task: 0, id: "c1", name: "read_file", arguments: { path: "a.py" } },
  { runId: R, kind: "tool_result", task: 0, id: "c1", name: "read_file", durationMs: 3.2, ok: true, output: { text: "x" } },
  { runId: R, kind: "task", index: 0, title: "Read a.py", status: "done", result: "read" },
  { runId: R, kind: "task", index: 1, title: "Write the test", status: "running" },
  { runId: R, kind: "tool_call", task: 1, id: "c2", name: "write_file", arguments: { path: "t.py", content: "..." } },
  { runId: R, kind: "proposal", action: "created", proposal: proposal("pending") },
  { runId: R, kind: "proposal", action: "resolved", proposal: proposal("rejected", "use pytest") },
  {
    runId: R,
    kind: "tool_result",
    task: 1,
    id: "c2",
    name: "write_file",
    ok: false,
    error: { type: "permission", message: "rejected", tool: "write_file" },
  },
  { runId: R, kind: "error", type: "bad_reply", message: "no tool call" },
];

describe("RunStore", () => {
  it("folds a run's events into tasks, steps, proposals and a transcript", () => {
    const { runs, tick } = store();
    for (const event of script) {
      runs.apply(event);
      tick();
    }
    const run = runs.get(R) as RunInfo;
    assert.equal(run.goal, "Add tests");
    assert.equal(run.status, "running");
    assert.deepEqual(
      run.tasks.map((t) => [t.index, t.title, t.status, t.steps.map((s) => `${s.name}:${s.status}`)]),
      [
        [0, "Read a.py", "done", ["read_file:ok"]],
        [1, "Write the test", "running", ["write_file:error"]],
      ],
    );
    assert.equal(run.steps, 2);
    assert.equal(run.tasks[0].steps[0].durationMs, 3.2);
    assert.equal(run.tasks[1].steps[0].error?.type, "permission");
    assert.deepEqual(run.proposals, ["prop-1"]);
    assert.deepEqual(run.proposalStatus, { "prop-1": "rejected" });
    const text = run.transcript.map((e) => e.text);
    assert.ok(text.includes("Planning…"));
    assert.ok(text.includes("Task 1 pending: Read a.py"));
    assert.ok(text.includes("Task 1 done: Read a.py — read"));
    assert.ok(text.includes('→ read_file(path="a.py")'));
    assert.ok(text.includes("← read_file ok (3 ms)"));
    assert.ok(text.includes("Edit proposed: Edit a.py"));
    assert.ok(text.includes("Edit rejected: Edit a.py (“use pytest”)"));
    assert.ok(text.includes("← write_file permission: rejected"));
    assert.ok(text.includes("bad_reply: no tool call"));
    assert.equal(runs.active()?.runId, R);
  });

  it("finishes a run: status, summary, usage, running steps closed", () => {
    const { runs } = store();
    runs.started(R, "Add tests");
    runs.apply({ runId: R, kind: "tool_call", id: "c1", name: "read_file", arguments: {} });
    runs.apply({ runId: R, kind: "finished", status: "completed", summary: "Added 2 tests", steps: 3, usage: USAGE });
    const run = runs.get(R) as RunInfo;
    assert.equal(run.status, "completed");
    assert.equal(run.summary, "Added 2 tests");
    assert.equal(run.steps, 3);
    assert.deepEqual(run.usage, USAGE);
    assert.ok(run.endedAt !== undefined);
    assert.equal(run.looseSteps[0].status, "error");
    assert.equal(runs.active(), undefined);
    assert.equal(runs.running().length, 0);
    // a late status event does not revive it
    runs.apply({ runId: R, kind: "status", status: "running", phase: "acting" });
    assert.equal(runs.get(R)?.status, "completed");
  });

  it("keeps the verification and usage of the finished event (DESIGN §9)", () => {
    const { runs } = store();
    runs.started(R, "Rename greet");
    runs.apply({
      runId: R,
      kind: "finished",
      status: "completed",
      summary: "Changed greet.py (+1 −1): applied.\nTests passed: 3 passed\nRenamed it.",
      steps: 4,
      verification: { verified: true, checks: [{ kind: "tests", passed: true, detail: "tests pass: 3 passed", command: "pytest -q" }] },
      usage: USAGE,
    });
    const run = runs.get(R) as RunInfo;
    assert.deepEqual(run.verification, {
      verified: true,
      checks: [{ kind: "tests", passed: true, detail: "tests pass: 3 passed", command: "pytest -q" }],
    });
    assert.deepEqual(run.usage, USAGE);
    assert.equal(run.transcript.at(-1)?.text, `Run completed · verified: tests passed — ${run.summary}`);
  });

  it("an unverified run keeps its reason; the transcript's last line says it", () => {
    const { runs } = store();
    runs.started(R, "Rename greet");
    const reason = "the tests were not run (mode 'dev' may not run processes)";
    runs.apply({ runId: R, kind: "finished", status: "completed", summary: "Renamed it.", verification: { verified: null, checks: [], unverified: reason } });
    assert.deepEqual(runs.get(R)?.verification, { verified: null, checks: [], unverified: reason });
    assert.equal(runs.get(R)?.transcript.at(-1)?.text, `Run completed · unverified: ${reason} — Renamed it.`);
  });

  it("an old server's finished event (no verification, usage of tokens and cost: null) reads as before", () => {
    const { runs } = store();
    runs.started(R, "Add tests");
    // what a server from before DESIGN §9 sent (agent/agent.py then)
    const old = { runId: R, kind: "finished", status: "completed", summary: "Added 2 tests", error: null, steps: 3, usage: { promptTokens: 10, completionTokens: 2, cost: null } };
    runs.apply(old as unknown as AgentEvent);
    const run = runs.get(R) as RunInfo;
    assert.equal(run.status, "completed");
    assert.equal(run.verification, undefined);
    assert.deepEqual(run.usage, { promptTokens: 10, completionTokens: 2 });
    assert.equal(run.transcript.at(-1)?.text, "Run completed: Added 2 tests");
    assert.deepEqual(outcomeMessage(run), { level: "info", text: "Agent run completed: Added 2 tests" });
    const md = runs.transcriptMarkdown(R);
    assert.ok(md.includes("Run `run-1` — **completed** · 3 step(s)"));
    assert.ok(!md.includes("## Verification"));
    assert.ok(md.includes("## Usage\n\n10 tokens in / 2 out\n"));
  });

  it("drops a malformed verification or usage instead of failing", () => {
    const { runs } = store();
    runs.started(R, "x");
    const bad = { runId: R, kind: "finished", status: "completed", verification: { verified: "yes", checks: [] }, usage: { promptTokens: "many", cost: -1 } };
    assert.doesNotThrow(() => runs.apply(bad as unknown as AgentEvent));
    assert.equal(runs.get(R)?.verification, undefined);
    assert.equal(runs.get(R)?.usage, undefined);
    runs.started("r2", "y");
    const partly = { verified: false, checks: [{ kind: "tests", passed: false, detail: "tests fail: 1 failed" }, { kind: 3 }, "x", { kind: "parse" }] };
    runs.apply({ runId: "r2", kind: "finished", status: "failed", error: "not done", verification: partly } as unknown as AgentEvent);
    assert.deepEqual(runs.get("r2")?.verification, { verified: false, checks: [{ kind: "tests", passed: false, detail: "tests fail: 1 failed" }] });
  });

  it("shows a run it did not start with its first event (a code action's run)", () => {
    const { runs, seen } = store();
    runs.apply({ runId: "run-x", kind: "status", status: "running", goal: "Explain" });
    assert.deepEqual(seen, ["run-x:running"]);
    assert.equal(runs.get("run-x")?.goal, "Explain");
  });

  it("calls made before their task was announced move under it", () => {
    const { runs } = store();
    runs.apply({ runId: R, kind: "tool_call", task: 0, id: "c1", name: "read_file", arguments: {} });
    assert.equal(runs.get(R)?.looseSteps.length, 1);
    runs.apply({ runId: R, kind: "task", index: 0, title: "T", status: "running" });
    assert.equal(runs.get(R)?.looseSteps.length, 0);
    assert.equal(runs.get(R)?.tasks[0].steps[0].id, "c1");
  });

  it("ends the running runs when the server stops", () => {
    const { runs } = store();
    runs.started("a", "A");
    runs.started("b", "B");
    runs.apply({ runId: "b", kind: "finished", status: "completed", summary: "ok" });
    const ended = runs.serverStopped("the server stopped");
    assert.deepEqual(
      ended.map((r) => r.runId),
      ["a"],
    );
    assert.equal(runs.get("a")?.status, "failed");
    assert.equal(runs.get("a")?.error, "the server stopped");
    assert.equal(runs.get("b")?.status, "completed");
  });

  it("lists runs newest first and reconciles with agent/status", () => {
    const { runs, tick } = store();
    runs.started("old", "Old");
    tick();
    runs.started("new", "New");
    assert.deepEqual(
      runs.list().map((r) => r.runId),
      ["new", "old"],
    );
    runs.applyStatus({
      runId: "old",
      status: "budget_exhausted",
      goal: "Old",
      tasks: [{ title: "T1", status: "done" }],
      steps: 30,
      proposals: ["p9"],
      summary: null,
    });
    const old = runs.get("old") as RunInfo;
    assert.equal(old.status, "budget_exhausted");
    assert.deepEqual(old.proposals, ["p9"]);
    assert.equal(old.tasks[0].title, "T1");
    assert.ok(old.endedAt !== undefined);
    assert.equal(old.verification, undefined); // a server before §9 sends none
    // §9: null while the run goes on, the verdict and usage once it has ended
    const running: AgentStatusResult = { runId: "new", status: "running", goal: "New", tasks: [], steps: 1, proposals: [], summary: null };
    runs.applyStatus({ ...running, verification: null, usage: { ...USAGE, promptTokens: 5 } });
    assert.equal(runs.get("new")?.verification, null);
    assert.equal(runs.get("new")?.usage?.promptTokens, 5);
    const verification = { verified: null, checks: [], unverified: "the workspace's tests could not be run" };
    runs.applyStatus({ ...running, status: "completed", verification, usage: USAGE });
    assert.deepEqual(runs.get("new")?.verification, verification);
    assert.deepEqual(runs.get("new")?.usage, USAGE);
  });

  it("renders the transcript as Markdown", () => {
    const { runs } = store();
    runs.started(R, "Add tests");
    for (const event of script) runs.apply(event);
    runs.apply({ runId: R, kind: "finished", status: "failed", error: "model unreachable" });
    const md = runs.transcriptMarkdown(R);
    assert.ok(md.startsWith("# Add tests\n"));
    assert.ok(md.includes("**failed**"));
    assert.ok(md.includes("1. [done] Read a.py"));
    assert.ok(md.includes("> Let me read it"));
    assert.ok(md.includes("## Error\n\nmodel unreachable"));
    assert.ok(runs.transcriptMarkdown("nope").includes("not known"));
  });

  it("puts the verification's checks and the usage in the transcript", () => {
    const { runs } = store();
    runs.started(R, "Fix parse");
    const failing = "tests fail: 1 failed, 2 passed\nFAILED test_p.py::test_x\n  assert 1 == 2";
    runs.apply({
      runId: R,
      kind: "finished",
      status: "failed",
      error: "not done: the tests fail",
      steps: 5,
      verification: {
        verified: false,
        checks: [
          { kind: "parse", passed: true, detail: "the changed files parse" },
          { kind: "tests", passed: false, detail: failing, command: "pytest -q" },
        ],
      },
      usage: USAGE,
    });
    const md = runs.transcriptMarkdown(R);
    assert.ok(md.includes("Run `run-1` — **failed** · tests failed: 1 failed, 2 passed · 5 step(s)"), md);
    assert.ok(md.includes("## Verification\n\n**A check failed**.\n"));
    assert.ok(md.includes("- ✓ **parse** passed: the changed files parse\n"));
    assert.ok(md.includes("- ✗ **tests** failed: tests fail: 1 failed, 2 passed — `pytest -q`\n\n  ```\n  FAILED test_p.py::test_x\n    assert 1 == 2\n  ```"), md);
    assert.ok(md.includes("## Usage\n\n1,200 tokens in / 80 out · model 4.5 s · context 900 of 8,192 (11 %)\n"));
    runs.started("u", "Explain");
    runs.apply({ runId: "u", kind: "finished", status: "completed", summary: "It greets.", verification: { verified: null, checks: [], unverified: "the answer names nothing that the files read hold" } });
    assert.ok(runs.transcriptMarkdown("u").includes("**Not verified**: the answer names nothing that the files read hold.\n"));
  });

  it("a failing listener does not stop the others", () => {
    const { runs } = store();
    const heard: string[] = [];
    const original = console.error;
    console.error = () => undefined;
    try {
      runs.onDidChange(() => {
        throw new Error("boom");
      });
      runs.onDidChange((run) => heard.push(run.runId));
      runs.started(R, "x");
    } finally {
      console.error = original;
    }
    assert.deepEqual(heard, [R]);
  });
});

describe("run formatting", () => {
  it("follows the run's task and step in the progress message", () => {
    const { runs } = store();
    runs.started(R, "Add tests");
    assert.equal(progressMessage(runs.get(R) as RunInfo), "Planning…");
    for (const event of script.slice(0, 7)) runs.apply(event);
    assert.equal(progressMessage(runs.get(R) as RunInfo), "Task 1/2: Read a.py · step 1: read_file");
  });

  it("says how a run ended", () => {
    const base = { runId: R, goal: "Add tests", steps: 30, tasks: [], looseSteps: [], proposals: [], transcript: [], startedAt: 0 };
    assert.deepEqual(outcomeMessage({ ...base, status: "completed", summary: "Added 2 tests" }), {
      level: "info",
      text: "Agent run completed: Added 2 tests",
    });
    assert.equal(outcomeMessage({ ...base, status: "failed", error: "model unreachable" }).level, "error");
    assert.ok(outcomeMessage({ ...base, status: "failed", error: "model unreachable" }).text.includes("model unreachable"));
    assert.equal(outcomeMessage({ ...base, status: "cancelled" }).level, "warning");
    // a run that fails because the user rejected its edits is the user's decision: a warning
    const rejected = outcomeMessage({ ...base, status: "failed", error: "not done", proposalStatus: { p1: "rejected" } });
    assert.deepEqual(rejected, { level: "warning", text: "Agent run failed: not done — you rejected its edit, so nothing was changed." });
    assert.equal(outcomeMessage({ ...base, status: "failed", proposalStatus: { p1: "rejected", p2: "applied" } }).level, "error");
    assert.match(outcomeMessage({ ...base, status: "budget_exhausted" }).text, /step budget \(30 steps\).*agentls\.maxSteps/);
    assert.equal(statusText({ ...base, status: "running", steps: 1 }), "$(sync~spin) Add tests · 1 step");
  });
});

describe("run store: issue 21", () => {
  it("shows a rejected edit step as rejected, not ok; rules, streams and a plain 'Run cancelled'", () => {
    let now = 1000;
    const runs = new RunStore(() => now);
    runs.started("r", "goal", "s1");
    runs.apply({ runId: "r", kind: "rules", files: [{ path: "AGENTS.md", chars: 412, cut: false }, { path: ".clinerules/a.md", chars: 9, cut: true }] });
    runs.apply({ runId: "r", kind: "warning", source: "mention", subject: "@nope.py", message: "no such file" });
    runs.apply({ runId: "r", kind: "status", status: "running", phase: "acting", steps: 0 });
    assert.deepEqual(runs.get("r")?.stream, { text: "", chars: 0, startedAt: 1000, phase: "acting" }, "a turn that has not streamed yet is thinking");
    runs.apply({ runId: "r", kind: "stream", phase: "acting", text: "{\"name\": " });
    now = 3000;
    runs.apply({ runId: "r", kind: "stream", phase: "acting", text: "\"edit_file\"}" });
    const streaming = runs.get("r");
    assert.equal(streaming?.stream?.text, '{"name": "edit_file"}');
    assert.equal(streaming?.stream?.startedAt, 1000);
    runs.apply({ runId: "r", kind: "tool_call", id: "c1", name: "edit_file", arguments: { path: "a.py" } });
    assert.equal(runs.get("r")?.stream, undefined, "a tool call ends the streamed turn");
    runs.apply({ runId: "r", kind: "tool_result", id: "c1", name: "edit_file", ok: true, output: { status: "rejected", comment: "no" } });
    const run = runs.get("r");
    assert.equal(run?.looseSteps[0].status, "rejected");
    assert.ok(run?.transcript.some((e) => e.text === "← edit_file rejected"));
    assert.deepEqual(run?.rules, ["AGENTS.md", ".clinerules/a.md (cut)"]);
    assert.ok(run?.transcript.some((e) => e.text === "Warning (@nope.py): no such file"));
    assert.equal(run?.sessionId, "s1");
    runs.apply({ runId: "r", kind: "finished", status: "cancelled", error: "cancelled" });
    assert.equal(runs.get("r")?.transcript.at(-1)?.text, "Run cancelled");
  });
});
