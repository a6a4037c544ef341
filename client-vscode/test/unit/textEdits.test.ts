import * as assert from "node:assert/strict";
import type { TextEdit } from "../../src/protocol";
import { applyTextEdits, EditError, lineStarts, offsetAt } from "../../src/proposals/textEdits";

const edit = (sl: number, sc: number, el: number, ec: number, newText: string): TextEdit => ({
  range: { start: { line: sl, character: sc }, end: { line: el, character: ec } },
  newText,
});

describe("applyTextEdits", () => {
  it("replaces whole lines across several lines", () => {
    const text = "a\nb\nc\nd\n";
    assert.equal(applyTextEdits(text, [edit(1, 0, 3, 0, "B\nC\n")]), "a\nB\nC\nd\n");
  });

  it("inserts, deletes and replaces within a line", () => {
    assert.equal(applyTextEdits("hello world", [edit(0, 5, 0, 5, ",")]), "hello, world");
    assert.equal(applyTextEdits("hello world", [edit(0, 5, 0, 11, "")]), "hello");
  });

  it("keeps CRLF line endings and counts a CRLF as one line break", () => {
    const text = "one\r\ntwo\r\nthree\r\n";
    assert.equal(applyTextEdits(text, [edit(1, 0, 2, 0, "TWO\r\n")]), "one\r\nTWO\r\nthree\r\n");
    // a character past the line's end stops before the \r\n
    assert.equal(applyTextEdits(text, [edit(0, 99, 0, 99, "!")]), "one!\r\ntwo\r\nthree\r\n");
    assert.deepEqual(lineStarts("a\r\nb\rc\nd"), [0, 3, 5, 7]);
  });

  it("inserts at the end of a text without a final newline, and past the last line", () => {
    assert.equal(applyTextEdits("x = 1", [edit(0, 5, 0, 5, "\ny = 2\n")]), "x = 1\ny = 2\n");
    assert.equal(applyTextEdits("x = 1\n", [edit(1, 0, 1, 0, "y = 2\n")]), "x = 1\ny = 2\n");
    assert.equal(applyTextEdits("x = 1\n", [edit(7, 0, 7, 0, "z\n")]), "x = 1\nz\n");
  });

  it("creates a file's content from an empty text (insert at 0:0)", () => {
    assert.equal(applyTextEdits("", [edit(0, 0, 0, 0, "print('hi')\n")]), "print('hi')\n");
  });

  it("applies several edits of one document against the original text, whatever their order", () => {
    const text = "a\nb\nc\nd\n";
    const edits = [edit(3, 0, 3, 1, "D"), edit(0, 0, 0, 1, "A"), edit(2, 0, 2, 0, "inserted\n")];
    assert.equal(applyTextEdits(text, edits), "A\nb\ninserted\nc\nD\n");
  });

  it("keeps two inserts at the same place in their given order", () => {
    assert.equal(applyTextEdits("x", [edit(0, 0, 0, 0, "1"), edit(0, 0, 0, 0, "2")]), "12x");
  });

  it("counts characters in UTF-16 code units (astral characters are two)", () => {
    const text = "s = '😀é'\n"; // 😀 is a surrogate pair
    assert.equal(offsetAt(text, { line: 0, character: 7 }), 7);
    // replace é (after the pair: column 5 + 2 = 7) by e
    assert.equal(applyTextEdits(text, [edit(0, 7, 0, 8, "e")]), "s = '😀e'\n");
    assert.equal(applyTextEdits("😀😀\nx", [edit(0, 2, 0, 4, "")]), "😀\nx");
  });

  it("refuses overlapping edits and reversed ranges", () => {
    assert.throws(() => applyTextEdits("abcdef", [edit(0, 0, 0, 3, "x"), edit(0, 2, 0, 4, "y")]), EditError);
    assert.throws(() => applyTextEdits("abcdef", [edit(0, 4, 0, 2, "x")]), /ends before it starts/);
  });
});
