// Cancel in the run's progress notification stops the run: it ends cancelled at once
// (without waiting for the model's slow reply) and the model hears nothing more from it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { WORKSPACE, call, plan } from "../lib/fixtures.mjs";
import { scenarioRunner, sleep, waitFor } from "../lib/harness.mjs";
import { acceptDefaults, answerInput, notifications, runCommand, waitForNotification } from "../lib/workbench.mjs";

const scenario = scenarioRunner(test);
const SLOW_S = 15;

scenario("Cancel from the progress notification stops the run", {
  files: WORKSPACE,
  // the acting turn answers only after SLOW_S seconds: the run is busy when Cancel is clicked
  script: [plan("Summarize greet.py"), call("call_slow", "finish", { summary: "too late" }, { delay: SLOW_S }), plan(), plan()],
}, async ({ page, model }) => {
  const goal = "Summarize greet.py slowly";
  await runCommand(page, "Agent: Run Goal…");
  await answerInput(page, goal);
  await acceptDefaults(page);
  const progress = await waitForNotification(page, (n) => n.text.includes(goal) && n.buttons.includes("Cancel"),
    "the run's progress notification with Cancel", 30000);
  await waitFor(() => model.requests().length >= 2, "the slow acting turn to be asked", 30000);
  const clicked = Date.now();
  await progress.toast.locator(".monaco-button", { hasText: "Cancel" }).click();
  await waitForNotification(page, (n) => /cancelled/i.test(n.text) && n.text.includes(goal), "the run's cancelled outcome", 10000);
  assert.ok(Date.now() - clicked < SLOW_S * 1000, "the run ended before the model's slow reply");
  await waitFor(async () => !(await notifications(page)).some((n) => n.buttons.includes("Cancel") && n.text.includes(goal)),
    "the progress notification to close", 10000);
  await sleep(SLOW_S * 1000 - (Date.now() - clicked) + 3000); // past the slow reply
  assert.equal(model.requests().length, 2, "no model turn after the cancel");
});
