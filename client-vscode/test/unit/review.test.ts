import * as assert from "node:assert/strict";
import type { Hunk, TextEdit } from "../../src/protocol";
import { describeEdit, hunkPlaces, reviewOutcome, shiftPlaces } from "../../src/proposals/review";
import type { FileChange } from "../../src/proposals/workspaceEdit";

const edit = (sl: number, el: number, newText: string): TextEdit => ({
  range: { start: { line: sl, character: 0 }, end: { line: el, character: 0 } },
  newText,
});
const A = "file:///ws/a.py";
const ORIGINAL = "one\ntwo\nthree\nfour\nfive\nsix\n";
// two hunks, as the server builds them: line 2 replaced by two lines, line 5 removed
const HUNKS: Hunk[] = [
  { index: 0, uri: A, diff: "@@ -2 +2,2 @@\n-two\n+TWO\n+two and a half\n", edits: [edit(1, 2, "TWO\ntwo and a half\n")] },
  { index: 1, uri: A, diff: "@@ -5 +6,0 @@\n-five\n", edits: [edit(4, 5, "")] },
];
const FILE: FileChange = { uri: A, create: false, version: 3, edits: HUNKS.flatMap((h) => h.edits) };
const PROPOSED = "one\nTWO\ntwo and a half\nthree\nfour\nsix\n";

describe("review: the hunks in the editable proposed side", () => {
  it("places each hunk on the proposed side's lines", () => {
    const places = hunkPlaces(ORIGINAL, HUNKS);
    assert.deepEqual(
      places.map((p) => [p.index, p.start, p.end, p.startChar, p.oldText, p.newText]),
      [
        [0, 1, 3, 0, "two\n", "TWO\ntwo and a half\n"],
        [1, 5, 5, 0, "five\n", ""],
      ],
    );
  });

  it("moves the places below a change the user typed, and grows the one it touches", () => {
    const places = hunkPlaces(ORIGINAL, HUNKS);
    const below = shiftPlaces(places, { startLine: 0, endLine: 0, insertedLines: 2 }); // two lines typed at the top
    assert.deepEqual(below.map((p) => [p.start, p.end]), [[3, 5], [7, 7]]);
    const inside = shiftPlaces(places, { startLine: 2, endLine: 2, insertedLines: 1 }); // a line added in hunk 0
    assert.deepEqual(inside.map((p) => [p.start, p.end]), [[1, 4], [6, 6]]);
    const after = shiftPlaces(places, { startLine: 6, endLine: 6, insertedLines: 1 });
    assert.deepEqual(after.map((p) => [p.start, p.end]), [[1, 3], [5, 5]]);
  });

  it("says what the user left: the whole proposal, some hunks, their own text, or nothing", () => {
    const review = (shown: string) => [{ file: FILE, original: ORIGINAL, shown }];
    assert.deepEqual(reviewOutcome(review(PROPOSED), HUNKS, new Set()), { kind: "whole" });
    assert.deepEqual(reviewOutcome(review(PROPOSED.replace(/\n/g, "\r\n")), HUNKS, new Set()), { kind: "whole" });
    const onlyFirst = "one\nTWO\ntwo and a half\nthree\nfour\nfive\nsix\n";
    assert.deepEqual(reviewOutcome(review(onlyFirst), HUNKS, new Set([1])), { kind: "hunks", hunks: [0] });
    assert.deepEqual(reviewOutcome(review(ORIGINAL), HUNKS, new Set([0, 1])), { kind: "nothing" });
    assert.deepEqual(reviewOutcome(review(PROPOSED.replace("TWO", "Two")), HUNKS, new Set()), { kind: "content" });
    // a hunk reverted another way (VS Code's Revert Block arrow): still the other hunk only
    assert.deepEqual(reviewOutcome(review(onlyFirst), HUNKS, new Set()), { kind: "hunks", hunks: [0] });
    // dropped a hunk and then typed: the user's text wins
    assert.deepEqual(reviewOutcome(review(onlyFirst.replace("four", "FOUR")), HUNKS, new Set([1])), { kind: "content" });
  });
});

describe("review: a title that says what the edit does", () => {
  it("names the file and the change from the diff", () => {
    const diff = "--- a/greet.py\n+++ b/greet.py\n@@ -1,2 +1,2 @@\n def greet(name):\n-    return f\"Hello, {name}\"\n+    return f\"Hi, {name}\"\n";
    assert.equal(describeEdit({ title: "Edit greet.py", diff }), 'greet.py: “return f"Hello, {name}"” → “return f"Hi, {name}"” (+1 −1)');
  });
  it("counts further hunks, lines added to a new file, and prefers the server's summary", () => {
    const two = "--- a/a.py\n+++ b/a.py\n@@ -1 +1,2 @@\n x\n+y\n@@ -9 +10 @@\n+z\n";
    assert.equal(describeEdit({ title: "Edit src/a.py", diff: two }), "a.py: adds 2 lines (“y”) and 1 more change (+2 −0)");
    const created = "--- /dev/null\n+++ b/tests/test_a.py\n@@ -0,0 +1,2 @@\n+def test():\n+    pass\n";
    assert.equal(describeEdit({ title: "Create tests/test_a.py", diff: created }), "Create test_a.py (2 lines)");
    assert.equal(describeEdit({ title: "Edit a.py", diff: two, summary: "Rename x to y\nmore" }), "a.py: Rename x to y");
  });
});
