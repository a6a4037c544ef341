// The agent's code actions on a selection (Ctrl+. / the lightbulb): "Agent: Explain this
// code" starts a run whose goal names the file and the selected lines.
import assert from "node:assert/strict";
import { test } from "node:test";
import { WORKSPACE, call, plan, requestText } from "../lib/fixtures.mjs";
import { scenarioRunner, waitFor } from "../lib/harness.mjs";
import { activeEditor, openFile, runCodeAction, waitForNotification } from "../lib/workbench.mjs";

const scenario = scenarioRunner(test);
const SUMMARY = "shout upper-cases the greeting";

scenario("A code action on the selection starts a run with the file and the lines", {
  files: WORKSPACE,
  script: [plan("Explain shout"), call("call_read", "read_file", { path: "greet.py" }), call("call_finish", "finish", { summary: SUMMARY }), plan()],
}, async ({ page, model }) => {
  await openFile(page, "greet.py");
  const editor = activeEditor(page);
  // select lines 5-6 (def shout … return greet(name).upper())
  await editor.locator(".view-line", { hasText: "def shout" }).click();
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("Shift+End");
  await waitFor(async () => /\(\d+ selected\)/.test(await page.locator(".statusbar").innerText()), "the selection in the status bar", 10000);
  await runCodeAction(page, "Agent: Explain this code", "def shout");
  const first = await waitFor(() => model.requests()[0], "the run's first model request", 30000);
  const text = requestText(first);
  assert.match(text, /Explain/, "the goal is the explain action's");
  assert.ok(text.includes("greet.py (lines 5-6)"), `the goal names the file and the selected lines: ${text.slice(0, 2000)}`);
  await waitForNotification(page, (n) => n.text.includes(SUMMARY), "the run's completion with its summary", 30000);
});
