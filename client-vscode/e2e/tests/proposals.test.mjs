// A goal from the palette and from the Agent view's goal box; each proposal opens by itself
// as a diff editor; Accept in its title bar applies and saves the edit; Reject asks for a
// comment, changes nothing and the model is told "rejected" with the comment.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { EDIT, GREET, WORKSPACE, call, editScript, plan, toolMessage } from "../lib/fixtures.mjs";
import { scenarioRunner, waitFor } from "../lib/harness.mjs";
import {
  acceptDefaults, answerInput, diffEditor, editorTitleAction, openViewContainer, quickInput, runCommand,
  waitForNotification, webviewFrame,
} from "../lib/workbench.mjs";

const scenario = scenarioRunner(test);
const HI = GREET.replace(EDIT.old, EDIT.new);
const plain = (text) => text.replace(/\u00a0/g, " "); // Monaco renders spaces as NBSP

async function runGoalFromPalette(page, goal) {
  await runCommand(page, "Agent: Run Goal…");
  await quickInput(page, { hasText: "What should the agent do" });
  await answerInput(page, goal);
  const picks = await acceptDefaults(page); // mode, approval: Enter keeps the settings
  assert.ok(picks.some((p) => p.includes("dev")), `the mode pick offers the configured "dev": ${JSON.stringify(picks)}`);
  assert.ok(picks.some((p) => p.includes("ask")), `the approval pick offers the configured "ask": ${JSON.stringify(picks)}`);
}

/** The proposal's diff opened by itself: original ↔ proposed, the change on the right. */
async function proposalDiff(page) {
  const diff = await diffEditor(page);
  const title = await page.locator(".editor-group-container.active .tab.active").innerText();
  assert.match(title, /greet\.py/, "the diff tab names the file");
  const modified = diff.locator(".editor.modified .view-lines:not(.line-delete)").first();
  await waitFor(async () => plain(await modified.innerText()).includes("Hi, "), "the proposed side to show the change", 15000);
  // side by side: the original editor; inline: the deleted lines' zone in the modified one
  assert.ok(plain(await diff.innerText()).includes("Hello, "), "the diff shows the original line too");
  return diff;
}

async function acceptAndCheck(page, ws, model) {
  await proposalDiff(page);
  await editorTitleAction(page, "Accept").click();
  const file = path.join(ws, "greet.py");
  await waitFor(() => fs.readFileSync(file, "utf8") === HI, "greet.py on disk to have the accepted edit", 20000);
  await waitFor(async () => (await page.locator(".tab.dirty").count()) === 0, "no unsaved editor after Accept", 10000);
  const told = await waitFor(() => toolMessage(model.requests(), "call_edit"), "the model to hear about the edit", 30000);
  assert.match(told, /"status":\s*"applied"/, `the model was told the edit was applied: ${told}`);
  await waitForNotification(page, (n) => n.text.includes("greet says Hi"), "the run's completion with its summary", 30000);
  assert.equal(fs.readFileSync(file, "utf8"), HI);
}

scenario("Run Goal from the palette: the diff opens, Accept applies and saves", {
  files: WORKSPACE, script: editScript("greet says Hi"),
}, async ({ page, ws, model }) => {
  await runGoalFromPalette(page, "Make greet say Hi");
  await acceptAndCheck(page, ws, model);
  const first = model.requests()[0];
  assert.ok(JSON.stringify(first.messages).includes("Make greet say Hi"), "the goal typed in the input box reached the model");
});

scenario("Run from the Agent view's goal box: the diff opens, Accept applies and saves", {
  files: WORKSPACE, script: editScript("greet says Hi"),
}, async ({ page, ws, model }) => {
  await openViewContainer(page, "Agent");
  const view = await webviewFrame(page, "#goal", "the Agent view's goal box", 30000);
  await view.locator("#goal").fill("Make greet say Hi from the view");
  assert.equal(await view.locator("#mode").inputValue(), "dev", "the mode select defaults to the setting");
  assert.equal(await view.locator("#approval").inputValue(), "ask", "the approval select defaults to the setting");
  await view.locator("#run").click();
  await acceptAndCheck(page, ws, model);
  assert.ok(JSON.stringify(model.requests()[0].messages).includes("Make greet say Hi from the view"));
  await view.locator("#runs li.run.status-completed").first().waitFor({ timeout: 15000 });
});

// After a rejection the goal's change was not made: the server turns the first finish
// away with a nudge and ends the run failed on the second (the done check); the extension
// shows that as a warning naming the rejection.
const REJECT_SCRIPT = [...editScript("left greet as it is").slice(0, 3), call("call_finish_again", "finish", { summary: "the user rejected the edit" }), plan(), plan()];

scenario("Reject with a comment: the file is unchanged and the model hears why", {
  files: WORKSPACE, script: REJECT_SCRIPT,
}, async ({ page, ws, model }) => {
  const comment = "Keep Hello; add a greeting constant instead";
  await runGoalFromPalette(page, "Make greet say Hi");
  await proposalDiff(page);
  await editorTitleAction(page, "Reject").click();
  await quickInput(page, { hasText: "Reject" });
  await answerInput(page, comment);
  const told = await waitFor(() => toolMessage(model.requests(), "call_edit"), "the model to hear about the rejection", 30000);
  assert.match(told, /"status":\s*"rejected"/, `the tool message says rejected: ${told}`);
  assert.ok(told.includes(comment), `the tool message carries the comment: ${told}`);
  const end = await waitForNotification(page, (n) => /Agent run failed/.test(n.text), "the run's end: failed, as no file was changed", 30000);
  assert.match(end.text, /you rejected its edit/, `the outcome says the user's rejection is why: ${end.text}`);
  assert.match(end.severity, /warning/, `a warning, not an error, after the user's own rejection: ${end.severity}`);
  assert.equal(fs.readFileSync(path.join(ws, "greet.py"), "utf8"), GREET, "greet.py is unchanged on disk");
  assert.equal(await page.locator(".monaco-diff-editor").count(), 0, "the proposal's diff closed");
});
