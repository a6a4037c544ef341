import * as assert from "node:assert/strict";
import type { AgentEvent, Check, Verification } from "../../src/protocol";
import { lastRunText, lastRunTooltip, outcomeMessage } from "../../src/runs/format";
import { RunStore, type RunInfo } from "../../src/runs/runStore";
import { checkLine, checkPhrase, formatCount, readUsage, usageText, verdict } from "../../src/runs/verdict";
import { runView } from "../../src/views/agentState";
import { runDescription, runIcon, runTooltip, runVerdictLevel } from "../../src/views/format";

const DEV = "the tests were not run (mode 'dev' may not run processes)";
const TESTS_PASS: Check = { kind: "tests", passed: true, detail: "tests pass: 3 passed", command: "pytest -q" };
const TESTS_FAIL: Check = {
  kind: "tests",
  passed: false,
  detail: "tests fail: 2 failed, 3 passed\nFAILED test_a.py::test_x\n  assert 1 == 2",
  command: "pytest -q",
};
const PARSE: Check = { kind: "parse", passed: true, detail: "the changed files parse" };
const GOAL: Check = { kind: "goal", passed: true, detail: "the changed lines hold 0.2" };
const USAGE = { promptTokens: 12_345, completionTokens: 678, modelSeconds: 42.06, contextWindow: 8192, contextUsed: 3210 };
/** The server's summary (agent/report.py): the facts, then the model's words. */
const SUMMARY = `Changed greet.py (+1 −1): applied.\nNot verified: ${DEV}.\ngreet says Hi now.`;

/** A finished run as the store holds it after the server's finished event. */
function finished(event: Omit<Extract<AgentEvent, { kind: "finished" }>, "runId" | "kind">, goal = "Make greet say Hi"): RunInfo {
  let t = 1_000;
  const runs = new RunStore(() => t);
  runs.started("r1", goal);
  t += 12_000;
  return runs.apply({ runId: "r1", kind: "finished", ...event });
}

describe("verdict (DESIGN §9)", () => {
  it("verified: what was checked, tests first, the parse check left out beside it", () => {
    const v = { verified: true, checks: [PARSE, TESTS_PASS] } satisfies Verification;
    assert.deepEqual(verdict("completed", v), { level: "verified", text: "verified: tests passed" });
    assert.deepEqual(verdict("completed", { verified: true, checks: [PARSE, GOAL] }), {
      level: "verified",
      text: "verified: the changed lines hold 0.2",
    });
    assert.equal(verdict("completed", { verified: true, checks: [] })?.text, "verified");
  });

  it("unverified: the server's reason, or that no check could run", () => {
    assert.deepEqual(verdict("completed", { verified: null, checks: [PARSE], unverified: DEV }), {
      level: "unverified",
      text: `unverified: ${DEV}`,
    });
    assert.equal(verdict("completed", { verified: null, checks: [] })?.text, "unverified: no check could run");
    // a run that did not complete is not called unverified: its status says it
    assert.equal(verdict("budget_exhausted", { verified: null, checks: [], unverified: DEV }), undefined);
    assert.equal(verdict("cancelled", null), undefined);
  });

  it("a failed check is shown as such, whatever the status", () => {
    assert.deepEqual(verdict("failed", { verified: false, checks: [PARSE, TESTS_FAIL] }), {
      level: "failed",
      text: "tests failed: 2 failed, 3 passed",
    });
    const goal: Check = { kind: "goal", passed: false, detail: "no file was changed" };
    assert.equal(verdict("completed", { verified: false, checks: [goal] })?.text, "goal check failed: no file was changed");
    assert.equal(verdict("failed", { verified: false, checks: [] })?.text, "a check failed");
  });

  it("no verification (a server before §9) gives no verdict", () => {
    assert.equal(verdict("completed", undefined), undefined);
    assert.equal(verdict("completed", null), undefined);
  });

  it("words each check", () => {
    assert.equal(checkPhrase(TESTS_PASS), "tests passed");
    assert.equal(checkPhrase({ kind: "tests", passed: false, detail: "" }), "tests failed");
    assert.equal(checkPhrase(PARSE), "the changed files parse");
    assert.equal(checkPhrase({ kind: "answer", passed: true, detail: "" }), "answer check passed");
    assert.equal(checkLine(TESTS_FAIL), "✗ tests: tests fail: 2 failed, 3 passed (pytest -q)");
    assert.equal(checkLine(PARSE), "✓ parse: the changed files parse");
  });
});

describe("usage (DESIGN §9)", () => {
  it("tokens in and out, model seconds, context used of the window", () => {
    assert.equal(usageText(USAGE), "12,345 tokens in / 678 out · model 42.1 s · context 3,210 of 8,192 (39 %)");
    assert.equal(usageText({ ...USAGE, contextWindow: 0 }), "12,345 tokens in / 678 out · model 42.1 s · context 3,210");
    assert.equal(usageText({ ...USAGE, cost: 0.012345 }).endsWith(" · cost 0.0123"), true);
    assert.equal(usageText(undefined), "");
  });

  it("an old server's usage: the tokens only; cost null is no cost", () => {
    const old = readUsage({ promptTokens: 10, completionTokens: 2, cost: null });
    assert.deepEqual(old, { promptTokens: 10, completionTokens: 2 });
    assert.equal(usageText(old), "10 tokens in / 2 out");
    assert.equal(readUsage("lots"), undefined);
    assert.equal(formatCount(1_234_567), "1,234,567");
  });
});

describe("a finished run in every view", () => {
  it("completed and unverified: toast, description, tooltip, status bar, Agent view", () => {
    const run = finished({
      status: "completed",
      summary: SUMMARY,
      steps: 3,
      verification: { verified: null, checks: [PARSE], unverified: DEV },
      usage: USAGE,
    });
    // the toast says the verdict once: the summary's own "Not verified" line is left out there
    assert.deepEqual(outcomeMessage(run), {
      level: "info",
      text: `Agent run completed · unverified: ${DEV} — Changed greet.py (+1 −1): applied. greet says Hi now.`,
    });
    assert.equal(runDescription(run, 0), `completed · unverified: ${DEV} · 3 steps · 12 s`);
    assert.equal(runVerdictLevel(run), "unverified");
    assert.equal(runIcon(run.status, "unverified"), "pass");
    const tooltip = runTooltip(run, 0);
    assert.ok(tooltip.includes("Run r1 — completed · 3 steps · 12 s\n"), tooltip);
    assert.ok(tooltip.includes(`Unverified: ${DEV}\n✓ parse: the changed files parse\nUsage: 12,345 tokens in / 678 out`), tooltip);
    assert.ok(tooltip.endsWith(SUMMARY));
    assert.equal(lastRunText(run), "$(hubot) Agent · completed · unverified");
    assert.equal(
      lastRunTooltip(run),
      `Last agent run: Make greet say Hi\ncompleted · unverified: ${DEV}\n` +
        "12,345 tokens in / 678 out · model 42.1 s · context 3,210 of 8,192 (39 %)\nClick to open its transcript.",
    );
    const view = runView(run, 0);
    assert.deepEqual(view.verdict, { level: "unverified", text: `unverified: ${DEV}` });
    assert.equal(view.description, `completed · unverified: ${DEV} · 3 steps · 12 s`);
    assert.equal(view.usage, "12,345 tokens in / 678 out · model 42.1 s · context 3,210 of 8,192 (39 %)");
    assert.deepEqual(view.details.slice(0, 2), [`Unverified: ${DEV}`, "✓ parse: the changed files parse"]);
  });

  it("completed and verified", () => {
    const summary = "Changed greet.py (+1 −1): applied.\nTests passed: 3 passed\ngreet says Hi now.";
    const run = finished({ status: "completed", summary, steps: 4, verification: { verified: true, checks: [TESTS_PASS, PARSE] }, usage: USAGE });
    assert.deepEqual(outcomeMessage(run), {
      level: "info",
      text: "Agent run completed · verified: tests passed — Changed greet.py (+1 −1): applied. Tests passed: 3 passed greet says Hi now.",
    });
    assert.equal(runDescription(run, 0), "completed · verified: tests passed · 4 steps · 12 s");
    assert.equal(runIcon(run.status, runVerdictLevel(run)), "verified");
    assert.equal(lastRunText(run), "$(hubot) Agent · completed · verified");
    assert.ok(runTooltip(run, 0).includes("Verified: tests passed\n✓ tests: tests pass: 3 passed (pytest -q)\n✓ parse:"));
  });

  it("a failed check: the failure and what failed", () => {
    const run = finished({
      status: "failed",
      error: "not done: the tests fail",
      steps: 6,
      verification: { verified: false, checks: [PARSE, TESTS_FAIL] },
      usage: USAGE,
    });
    assert.deepEqual(outcomeMessage(run), {
      level: "error",
      text: "Agent run failed · tests failed: 2 failed, 3 passed — not done: the tests fail",
    });
    assert.equal(runDescription(run, 0), "failed · tests failed: 2 failed, 3 passed · 6 steps · 12 s");
    assert.equal(runVerdictLevel(run), "failed");
    assert.equal(lastRunText(run), "$(hubot) Agent · failed · check failed");
    assert.equal(runView(run, 0).verdict?.level, "failed");
    // a run out of budget with a failed check says both
    const budget = finished({ status: "budget_exhausted", steps: 30, verification: { verified: false, checks: [TESTS_FAIL] } }, "Fix it");
    assert.match(outcomeMessage(budget).text, /^Agent run stopped at its step budget \(30 steps\) · tests failed: 2 failed, 3 passed: Fix it\./);
  });

  it("an old server's run (no verification) reads as before everywhere", () => {
    const old = { status: "completed", summary: "greet says Hi", steps: 2, usage: { promptTokens: 10, completionTokens: 2, cost: null } };
    const run = finished(old as unknown as Parameters<typeof finished>[0]);
    assert.deepEqual(outcomeMessage(run), { level: "info", text: "Agent run completed: greet says Hi" });
    assert.equal(runDescription(run, 0), "completed · 2 steps · 12 s");
    assert.equal(runIcon(run.status, runVerdictLevel(run)), "pass");
    assert.equal(lastRunText(run), "$(hubot) Agent · completed");
    assert.ok(runTooltip(run, 0).includes("Usage: 10 tokens in / 2 out"));
    const view = runView(run, 0);
    assert.equal(view.verdict, null);
    assert.equal(view.usage, "10 tokens in / 2 out");
    // and without any usage either, nothing about it
    const bare = finished({ status: "completed", summary: "ok" });
    assert.equal(runView(bare, 0).usage, "");
    assert.deepEqual(runView(bare, 0).details, []);
    assert.ok(!runTooltip(bare, 0).includes("Usage"));
  });

  it("a summary without the verdict's line is shown whole", () => {
    const run = finished({ status: "completed", summary: "Renamed it.", verification: { verified: null, checks: [], unverified: DEV } });
    assert.equal(outcomeMessage(run).text, `Agent run completed · unverified: ${DEV} — Renamed it.`);
    const empty = finished({ status: "completed", summary: `Not verified: ${DEV}.`, verification: { verified: null, checks: [], unverified: DEV } });
    assert.equal(outcomeMessage(empty).text, `Agent run completed · unverified: ${DEV} — Make greet say Hi`);
  });
});
