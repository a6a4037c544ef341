/**
 * Reviewing a proposal in its editable diff (DESIGN §4 per-hunk review, §9 edit before
 * accept): where each hunk sits in the proposed text (for the ✓ / ✗ CodeLenses), how those
 * places move when the user types, what rejecting one hunk puts back, and — at Accept — what
 * the user left: the proposal as sent, a subset of its hunks, or their own text (`content`).
 * Also the proposal's title that says what the edit does.
 * Must not know: VS Code (URIs are strings, documents are text).
 */

import type { Hunk, TextEdit } from "../protocol";
import { applyTextEdits, lineStarts, offsetAt } from "./textEdits";
import type { FileChange } from "./workspaceEdit";

/** One hunk as it sits in the proposed document: lines [start, end) hold its new text. */
export interface HunkPlace {
  index: number;
  start: number;
  end: number;
  /** the character on line `start` where the hunk's text begins */
  startChar: number;
  /** the original text the hunk replaces (what ✗ puts back) */
  oldText: string;
  /** the text the hunk proposes */
  newText: string;
}

/**
 * The places of a file's hunks in its proposed text (the original with all the file's edits
 * applied). A hunk's edits are contiguous; its place runs from the line of its first edit's
 * start to the line after its last edit's new text.
 */
export function hunkPlaces(original: string, hunks: readonly Hunk[]): HunkPlace[] {
  const starts = lineStarts(original);
  type Span = { hunk: Hunk; start: number; end: number; newText: string };
  const spans: Span[] = [];
  for (const hunk of hunks) {
    if (!hunk.edits.length) continue;
    const offsets = hunk.edits.map((e) => ({ s: offsetAt(original, e.range.start, starts), e: offsetAt(original, e.range.end, starts), t: e.newText }));
    offsets.sort((a, b) => a.s - b.s);
    const start = offsets[0].s;
    const end = offsets[offsets.length - 1].e;
    // the new text of the whole span: the edits with the untouched text between them
    let newText = "";
    let at = start;
    for (const o of offsets) {
      newText += original.slice(at, o.s) + o.t;
      at = o.e;
    }
    spans.push({ hunk, start, end, newText });
  }
  spans.sort((a, b) => a.start - b.start);
  const places: HunkPlace[] = [];
  let delta = 0; // offset shift of the proposed text against the original so far
  let proposed = "";
  let at = 0;
  for (const span of spans) {
    proposed += original.slice(at, span.start);
    const startOffset = span.start + delta;
    proposed += span.newText;
    at = span.end;
    delta += span.newText.length - (span.end - span.start);
    const startLine = countLines(proposed, startOffset);
    const endOffset = startOffset + span.newText.length;
    let endLine = countLines(proposed, endOffset);
    // a span that ends in a line break ends before the next line; an empty one still gets a line
    if (endOffset > startOffset && proposed[endOffset - 1] !== "\n") endLine += 1;
    places.push({
      index: span.hunk.index,
      start: startLine,
      startChar: startOffset - (proposed.lastIndexOf("\n", startOffset - 1) + 1),
      end: Math.max(endLine, startLine + (span.newText.length ? 1 : 0)),
      oldText: original.slice(span.start, span.end),
      newText: span.newText,
    });
  }
  return places;
}

function countLines(text: string, offset: number): number {
  let n = 0;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** A change of the document: lines [start, end) were replaced by `lines` new line breaks' worth. */
export interface LineChange {
  startLine: number;
  endLine: number;
  /** line breaks in the inserted text */
  insertedLines: number;
}

/**
 * Move the places after a change of the document: places below it shift by the lines added
 * or removed; a place the change overlaps keeps its start and grows or shrinks with it.
 */
export function shiftPlaces(places: readonly HunkPlace[], change: LineChange): HunkPlace[] {
  const delta = change.insertedLines - (change.endLine - change.startLine);
  return places.map((p) => {
    if (change.startLine >= p.end) return p; // below the hunk
    if (change.endLine < p.start) return { ...p, start: p.start + delta, end: p.end + delta }; // above
    return { ...p, end: Math.max(p.start + 1, p.end + delta) }; // inside or touching
  });
}

/** What the user left in the proposed document(s), as the answer to the server. */
export type ReviewOutcome =
  | { kind: "whole" }
  | { kind: "hunks"; hunks: number[] }
  | { kind: "content" }
  | { kind: "nothing" };

/**
 * Compare what each file's proposed document holds with the proposal: all of it → `whole`;
 * exactly the original with some of the hunks (the others were ✗-ed) → `hunks`; the original
 * itself in every file → `nothing`; anything else → `content` (the user edited it).
 */
export function reviewOutcome(
  files: readonly { file: FileChange; original: string; shown: string }[],
  hunks: readonly Hunk[],
  rejected: ReadonlySet<number>,
): ReviewOutcome {
  const norm = (t: string) => t.replace(/\r\n/g, "\n");
  if (files.every((f) => norm(f.shown) === norm(applyTextEdits(f.original, f.file.edits)))) return { kind: "whole" };
  if (files.every((f) => norm(f.shown) === norm(f.original))) return { kind: "nothing" };
  const matches = (kept: readonly Hunk[]) =>
    files.every((f) => {
      const edits: TextEdit[] = kept.filter((h) => h.uri === f.file.uri).flatMap((h) => h.edits);
      try {
        return norm(f.shown) === norm(applyTextEdits(f.original, edits));
      } catch {
        return false;
      }
    });
  // the hunks dropped with ✗ first; else any subset (a hunk reverted with VS Code's own
  // "Revert Block" arrow, or typed back by hand), for up to 10 hunks
  const first = hunks.filter((h) => !rejected.has(h.index));
  if (rejected.size && first.length && matches(first)) return { kind: "hunks", hunks: first.map((h) => h.index) };
  if (hunks.length > 1 && hunks.length <= 10) {
    for (let mask = (1 << hunks.length) - 2; mask > 0; mask--) {
      const kept = hunks.filter((_, i) => mask & (1 << i));
      if (matches(kept)) return { kind: "hunks", hunks: kept.map((h) => h.index) };
    }
  }
  return { kind: "content" };
}

// --- titles -------------------------------------------------------------------------------------
const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/**
 * A title that says what the edit does: the server's own words when it sends a summary
 * (`summary` beside the proposal), else built from the diff — `greet.py: “return "Hello"”
 * → “return "Hi"”`, `greet.py: adds 3 lines after “def f():”`, `Create test_x.py (12 lines)`,
 * with the number of changes when there are several.
 */
export function describeEdit(p: { title: string; diff?: string; summary?: string | null }): string {
  const fileName = (p.title.match(/^(?:Edit|Create|Delete)\s+(.+)$/)?.[1] ?? "").split("/").pop() || p.title;
  if (p.summary && p.summary.trim()) return `${fileName}: ${clip(p.summary.trim().split("\n")[0], 100)}`;
  const lines = (p.diff ?? "").split("\n");
  const added = lines.filter((l) => l.startsWith("+") && !l.startsWith("+++"));
  const removed = lines.filter((l) => l.startsWith("-") && !l.startsWith("---"));
  const hunks = lines.filter((l) => l.startsWith("@@")).length;
  const counts = `+${added.length} −${removed.length}`;
  if (/^Create\b/.test(p.title) || lines.some((l) => l === "--- /dev/null")) return `Create ${fileName} (${added.length} line${added.length === 1 ? "" : "s"})`;
  if (/^Delete\b/.test(p.title)) return `Delete ${fileName}`;
  const first = (l: string[]) => l.map((x) => x.slice(1).trim()).find(Boolean) ?? "";
  const many = hunks > 1 ? ` and ${hunks - 1} more change${hunks > 2 ? "s" : ""}` : "";
  let what: string;
  if (added.length && removed.length) what = `“${clip(first(removed), 40)}” → “${clip(first(added), 40)}”`;
  else if (added.length) what = `adds ${added.length} line${added.length === 1 ? "" : "s"} (“${clip(first(added), 40)}”)`;
  else if (removed.length) what = `removes ${removed.length} line${removed.length === 1 ? "" : "s"} (“${clip(first(removed), 40)}”)`;
  else return p.title;
  return `${fileName}: ${what}${many} (${counts})`;
}
