import * as assert from "node:assert/strict";
import { completeMention, mentionQuery, mentionsIn } from "../../src/mentions";
import { RunStore } from "../../src/runs/runStore";
import { SessionList, type SavedSessions } from "../../src/runs/sessions";

describe("sessions: the conversations the Agent view lists", () => {
  it("groups the runs by session, keeps a record of each and survives a reload", () => {
    const runs = new RunStore(() => 1000);
    const list = new SessionList();
    runs.onDidChange((r) => list.observe(r, 1000));
    runs.started("run-1", "Make greet say Hi", "sess-a");
    runs.started("run-2", "Now add a test", "sess-a");
    runs.apply({ runId: "run-2", kind: "finished", status: "completed", summary: "added tests/test_greet.py" });
    runs.started("run-3", "Another thing", undefined); // a server without sessions
    const reloaded = new SessionList(JSON.parse(JSON.stringify(list.toJSON())) as SavedSessions);
    const a = reloaded.get("sess-a");
    assert.deepEqual(a?.runs, ["run-1", "run-2"]);
    assert.equal(a?.title, "Make greet say Hi");
    assert.equal(a?.continuable, true);
    assert.equal(reloaded.record("run-2")?.summary, "added tests/test_greet.py");
    assert.equal(reloaded.get("run:run-3")?.continuable, false);
  });

  it("takes the server's titles and runs, and moves a run whose events came before its session", () => {
    const list = new SessionList();
    const runs = new RunStore(() => 5);
    runs.onDidChange((r) => list.observe(r, 5));
    runs.apply({ runId: "run-9", kind: "status", status: "running", goal: "early" });
    assert.ok(list.get("run:run-9"));
    runs.started("run-9", "early", "sess-b");
    assert.equal(list.get("run:run-9"), undefined);
    list.fromServer([{ sessionId: "sess-b", title: "Greeting work", runs: ["run-8", "run-9"], updated: "2026-12-03T12:00:00Z" }]);
    assert.deepEqual(list.get("sess-b")?.runs, ["run-8", "run-9"]);
    assert.equal(list.get("sess-b")?.title, "Greeting work");
    assert.equal(list.list()[0].sessionId, "sess-b");
    // the server of 0.2.0 counts the runs (epoch seconds for updated): this window's runs stay
    list.fromServer([{ sessionId: "sess-b", title: "Greeting work", runs: 3, updated: 1_800_000_000 }]);
    assert.deepEqual(list.get("sess-b")?.runs, ["run-8", "run-9"]);
    assert.equal(list.get("sess-b")?.runCount, 3);
    assert.equal(list.get("sess-b")?.updated, 1_800_000_000_000);
  });
});

describe("mentions: @ in the goal", () => {
  it("lists the tokens a goal names", () => {
    assert.deepEqual(mentionsIn("Fix @src/app.py using @symbol:greet, see @problems and @diff @url:https://x.org/a."), [
      "@src/app.py",
      "@symbol:greet",
      "@problems",
      "@diff",
      "@url:https://x.org/a",
    ]);
    assert.deepEqual(mentionsIn("mail me at a@b.c, or @ alone"), []);
  });
  it("finds the @ being typed and completes it", () => {
    assert.deepEqual(mentionQuery("look at @gre", 12), { start: 8, query: "gre" });
    assert.equal(mentionQuery("look at a@gre", 13), undefined);
    assert.equal(mentionQuery("@x done", 7), undefined);
    assert.deepEqual(completeMention("look at @gre please", 8, 12, "@greet.py"), { text: "look at @greet.py please", cursor: 17 });
    assert.deepEqual(completeMention("@u", 0, 2, "@url:"), { text: "@url:", cursor: 5 });
  });
});
