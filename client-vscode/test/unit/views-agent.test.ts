import * as assert from "node:assert/strict";
import { parseFromWebview } from "../../src/views/agentMessages";
import { proposalView, RunSelection, runView, TranscriptCursor } from "../../src/views/agentState";
import { csp, shell } from "../../src/views/html";
import { parseFromGraphWebview } from "../../src/views/graphMessages";
import { RunStore } from "../../src/runs/runStore";

describe("views: agent view state and messages", () => {
  describe("what the webview may send", () => {
    const good: unknown[] = [
      { type: "ready" },
      { type: "run", goal: "fix it", mode: "dev", approval: "ask", sessionId: null, withEditor: true },
      { type: "run", goal: "and now the tests", mode: "dev", approval: "plan", sessionId: "sess-1", withEditor: false },
      { type: "selectSession", sessionId: "sess-1" },
      { type: "newSession" },
      { type: "removeContext" },
      { type: "walkthrough" },
      { type: "mentions", seq: 3, query: "gre" },
      { type: "cancel", runId: "r1" },
      { type: "selectRun", runId: "r1" },
      { type: "openTranscript", runId: "r1" },
      { type: "proposal", action: "accept", id: "p1" },
      { type: "restartServer" },
      { type: "manageTrust" },
    ];
    for (const m of good) it(`accepts ${JSON.stringify(m)}`, () => assert.deepEqual(parseFromWebview(m), m));

    const bad: unknown[] = [
      null,
      "run",
      { type: "run", goal: "x", mode: "root", approval: "ask" },
      { type: "run", goal: 3, mode: "dev", approval: "ask" },
      { type: "run", goal: "x", mode: "dev", approval: "yes" },
      { type: "cancel" },
      { type: "cancel", runId: "" },
      { type: "selectSession", sessionId: "" },
      { type: "mentions", query: "x" },
      { type: "proposal", action: "delete", id: "p1" },
      { type: "proposal", action: "open" },
      { type: "eval", code: "1" },
    ];
    for (const m of bad) it(`drops ${JSON.stringify(m)}`, () => assert.equal(parseFromWebview(m), undefined));

    it("drops extra fields", () => {
      assert.deepEqual(parseFromWebview({ type: "ready", extra: 1 }), { type: "ready" });
    });

    it("graph panel messages too", () => {
      assert.deepEqual(parseFromGraphWebview({ type: "open", module: "a.b" }), { type: "open", module: "a.b" });
      assert.equal(parseFromGraphWebview({ type: "open", module: "" }), undefined);
      assert.equal(parseFromGraphWebview({ type: "exec" }), undefined);
    });
  });

  describe("run view", () => {
    it("carries tasks and steps as plain data", () => {
      let t = 0;
      const s = new RunStore(() => t);
      s.started("r1", "goal");
      s.apply({ runId: "r1", kind: "task", index: 0, title: "look", status: "running" });
      t = 10;
      s.apply({ runId: "r1", kind: "tool_call", task: 0, id: "c1", name: "read_file", arguments: { path: "a" } });
      t = 30;
      s.apply({ runId: "r1", kind: "tool_result", task: 0, id: "c1", name: "read_file", ok: true, durationMs: 20 });
      const v = runView(s.get("r1")!, 1000);
      assert.equal(v.description, "running · 1 step · 1.0 s");
      assert.deepEqual(
        v.tasks.map((task) => [task.title, task.status, task.steps.map((st) => [st.label, st.status, st.description])]),
        [["look", "running", [['read_file path="a"', "ok", "ok · 20 ms"]]]],
      );
      assert.doesNotThrow(() => JSON.stringify(v));
    });

    it("proposal view: title and relative path", () => {
      const p = proposalView(
        { id: "p1", runId: "r1", uri: "file:///w/a.py", title: "Edit a.py", diff: "", edit: {}, hunks: [], status: "pending" },
        () => "a.py",
      );
      assert.deepEqual(p, { id: "p1", runId: "r1", title: "Edit a.py", path: "a.py" });
    });
  });

  describe("selection", () => {
    it("follows a new run, keeps a pick, falls back to the newest", () => {
      let t = 0;
      const s = new RunStore(() => t++);
      const sel = new RunSelection(s);
      assert.equal(sel.current(), undefined);
      sel.observe(s.started("r1", "one"));
      s.apply({ runId: "r1", kind: "finished", status: "completed" });
      sel.observe(s.started("r2", "two"));
      assert.equal(sel.current()?.runId, "r2", "a new run takes the view");
      sel.pick("r1");
      assert.equal(sel.current()?.runId, "r1");
      sel.observe(s.get("r2")!);
      assert.equal(sel.current()?.runId, "r1", "an old run's events don't steal it");
      sel.pick("gone");
      assert.equal(sel.current()?.runId, "r2", "an unknown pick: the active run");
    });
  });

  describe("transcript cursor", () => {
    it("sends everything once, then only new entries; a new run resets", () => {
      let t = 0;
      const s = new RunStore(() => t++);
      const cursor = new TranscriptCursor();
      const r1 = s.started("r1", "one");
      const first = cursor.next(r1)!;
      assert.equal(first.reset, true);
      assert.equal(first.entries.length, 1);
      assert.equal(cursor.next(r1), undefined, "nothing new");
      s.apply({ runId: "r1", kind: "thought", text: "hmm" });
      s.apply({ runId: "r1", kind: "thought", text: "aha" });
      const delta = cursor.next(r1)!;
      assert.deepEqual([delta.reset, delta.from, delta.entries.map((e) => e.text)], [false, 1, ["hmm", "aha"]]);
      const r2 = s.started("r2", "two");
      assert.equal(cursor.next(r2)!.reset, true);
      cursor.restart();
      assert.equal(cursor.next(r2)!.entries.length, 1, "after restart: all again");
      assert.deepEqual(cursor.next(undefined), { runId: null, from: 0, reset: true, entries: [] });
    });
  });

  describe("html shell", () => {
    it("a strict CSP: no inline scripts, nonce only; inline styles only when asked", () => {
      const policy = csp({ cspSource: "vscode-resource:", nonce: "abc" });
      assert.equal(
        policy,
        "default-src 'none'; style-src vscode-resource:; script-src 'nonce-abc'; img-src vscode-resource: data:; font-src vscode-resource:",
      );
      assert.match(csp({ cspSource: "x", nonce: "n", inlineStyles: true }), /style-src x 'unsafe-inline';/);
      assert.ok(!/script-src[^;]*unsafe/.test(csp({ cspSource: "x", nonce: "n", inlineStyles: true })));
    });

    it("one script element with the nonce, attributes escaped", () => {
      const html = shell({
        cspSource: "c",
        nonce: "n1",
        title: '<x>"',
        scriptUri: "https://x/a.js?q=\"><script>",
        styleUris: ["s.css"],
      });
      assert.equal(html.match(/<script/g)?.length, 1);
      assert.match(html, /<script nonce="n1" src="https:\/\/x\/a.js\?q=&quot;&gt;&lt;script&gt;"><\/script>/);
      assert.match(html, /<title>&lt;x&gt;&quot;<\/title>/);
    });
  });
});

describe("views: a model turn as it goes", () => {
  it("says thinking… with its seconds, then tokens per second once text streams", () => {
    let now = 10_000;
    const runs = new RunStore(() => now);
    runs.started("r", "goal");
    runs.apply({ runId: "r", kind: "status", status: "running", phase: "acting", steps: 0 });
    now = 13_000;
    assert.deepEqual(runView(runs.get("r")!, now).stream, { label: "thinking… 3 s", text: "" });
    runs.apply({ runId: "r", kind: "stream", phase: "acting", text: "x".repeat(400) });
    now = 20_000;
    assert.deepEqual(runView(runs.get("r")!, now).stream, { label: "thinking… 10 s · 10 tok/s", text: "x".repeat(400) });
    runs.apply({ runId: "r", kind: "tool_call", id: "c", name: "read_file", arguments: {} });
    assert.equal(runView(runs.get("r")!, now).stream, null);
  });
});
