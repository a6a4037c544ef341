// When the server command cannot be started: one error notification that says how to
// install agentls and has a button opening the agentls.serverCommand setting.
import assert from "node:assert/strict";
import { test } from "node:test";
import { WORKSPACE } from "../lib/fixtures.mjs";
import { scenarioRunner, sleep } from "../lib/harness.mjs";
import { notifications, waitForNotification } from "../lib/workbench.mjs";

const scenario = scenarioRunner(test);
const MISSING = "/nonexistent/agentls serve";

scenario("A missing server command gives one actionable error", {
  files: WORKSPACE, settings: { "agentls.serverCommand": MISSING },
}, async ({ page }) => {
  const isOurs = (n) => /error/.test(n.severity) && n.text.includes("agentls");
  const error = await waitForNotification(page, isOurs, "the error notification", 30000);
  assert.ok(error.text.includes("/nonexistent/agentls"), `it names the command that failed: ${error.text}`);
  assert.match(error.text, /pip install/, `it says how to install: ${error.text}`);
  assert.ok(error.text.includes("agentls.serverCommand"), `it names the setting: ${error.text}`);
  const button = error.buttons.find((b) => /setting/i.test(b));
  assert.ok(button, `a button opens the setting: ${JSON.stringify(error.buttons)}`);
  await sleep(3000);
  assert.equal((await notifications(page)).filter(isOurs).length, 1, "exactly one error notification");
  await error.toast.locator(".monaco-button", { hasText: button }).click();
  const settings = page.locator(".settings-editor");
  await settings.waitFor({ state: "visible", timeout: 15000 });
  await settings.locator(".setting-item-contents", { hasText: "Server Command" }).first().waitFor({ timeout: 15000 });
  const value = await settings.locator(".setting-item-contents", { hasText: "Server Command" }).first().locator("input").first().inputValue().catch(() => "");
  assert.equal(value, MISSING, "the setting shown is the one in use");
});
