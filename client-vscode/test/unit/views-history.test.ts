import * as assert from "node:assert/strict";
import { GoalHistory, HISTORY_LIMIT, historyKey, remember } from "../../src/views/history";

describe("views: goal history", () => {
  describe("remember", () => {
    it("appends, moves a repeat to the end, ignores blanks, trims to the newest 50", () => {
      assert.deepEqual(remember([], "  fix the bug  "), ["fix the bug"]);
      assert.deepEqual(remember(["a", "b", "c"], "a"), ["b", "c", "a"]);
      assert.deepEqual(remember(["a"], "   "), ["a"]);
      const many = Array.from({ length: HISTORY_LIMIT }, (_, i) => `g${i}`);
      const next = remember(many, "new");
      assert.equal(next.length, HISTORY_LIMIT);
      assert.equal(next[0], "g1");
      assert.equal(next.at(-1), "new");
    });
  });

  describe("walking", () => {
    it("Up walks to older goals and stops at the oldest; Down comes back to the draft", () => {
      const h = new GoalHistory(["first", "second", "third"]);
      assert.equal(h.atDraft, true);
      assert.equal(h.older("my draft"), "third");
      assert.equal(h.older("third"), "second");
      assert.equal(h.older("second"), "first");
      assert.equal(h.older("first"), undefined, "nothing older");
      assert.equal(h.newer(), "second");
      assert.equal(h.newer(), "third");
      assert.equal(h.newer(), "my draft", "after the newest: what was being typed");
      assert.equal(h.atDraft, true);
      assert.equal(h.newer(), undefined);
    });

    it("an empty history does nothing", () => {
      const h = new GoalHistory();
      assert.equal(h.older("x"), undefined);
      assert.equal(h.newer(), undefined);
    });

    it("reset goes back to the draft with the new list", () => {
      const h = new GoalHistory(["a"]);
      h.older("");
      h.reset(["a", "b"]);
      assert.equal(h.atDraft, true);
      assert.equal(h.length, 2);
      assert.equal(h.older(""), "b");
    });
  });

  describe("which keys walk", () => {
    const cases: [string, { start: number; end: number; length: number }, boolean, "older" | "newer" | undefined][] = [
      ["ArrowUp", { start: 0, end: 0, length: 10 }, false, "older"],
      ["ArrowUp", { start: 3, end: 3, length: 10 }, false, undefined],
      ["ArrowUp", { start: 0, end: 4, length: 10 }, false, undefined],
      ["ArrowUp", { start: 0, end: 0, length: 0 }, false, "older"],
      ["ArrowDown", { start: 10, end: 10, length: 10 }, false, "newer"],
      ["ArrowDown", { start: 0, end: 0, length: 10 }, false, undefined],
      ["ArrowDown", { start: 0, end: 0, length: 0 }, false, "newer"],
      ["ArrowUp", { start: 0, end: 0, length: 10 }, true, undefined],
      ["Enter", { start: 0, end: 0, length: 0 }, false, undefined],
    ];
    for (const [key, caret, mods, want] of cases) {
      it(`${key} at ${caret.start}-${caret.end}/${caret.length}${mods ? " with a modifier" : ""} → ${String(want)}`, () => {
        assert.equal(historyKey(key, caret, mods), want);
      });
    }
  });
});
