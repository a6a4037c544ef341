/**
 * LSP TextEdits applied to a string: how the proposed side of a diff is built from the
 * original text. Positions are 0-based lines and UTF-16 code units (JavaScript strings
 * are UTF-16, so a character index is a string index); a line ends at "\n", "\r\n" or
 * "\r"; a character past the end of its line means the end of that line, a line past the
 * last means the end of the text. Edits of one document refer to the original text, are
 * applied together and must not overlap.
 * Must not know: VS Code.
 */

import type { Position, TextEdit } from "../protocol";

export class EditError extends Error {}

/** Offsets where each line starts. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (ch === 10 /* \n */) {
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The offset of a position (clamped as the LSP spec says). */
export function offsetAt(text: string, pos: Position, starts: number[] = lineStarts(text)): number {
  if (pos.line < 0 || pos.character < 0) throw new EditError(`negative position ${pos.line}:${pos.character}`);
  if (pos.line >= starts.length) return text.length;
  const start = starts[pos.line];
  let end = pos.line + 1 < starts.length ? starts[pos.line + 1] : text.length;
  // the line's content ends before its line break
  if (end > start && text.charCodeAt(end - 1) === 10) end--;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  return Math.min(start + pos.character, end);
}

export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = lineStarts(text);
  const spans = edits.map((edit, order) => {
    const start = offsetAt(text, edit.range.start, starts);
    const end = offsetAt(text, edit.range.end, starts);
    if (end < start) throw new EditError(`an edit ends before it starts (${fmt(edit.range.start)}–${fmt(edit.range.end)})`);
    return { start, end, newText: edit.newText, order };
  });
  spans.sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i].start < spans[i - 1].end) throw new EditError("two edits of the same document overlap");
  }
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + span.newText;
    at = span.end;
  }
  return out + text.slice(at);
}

function fmt(pos: Position): string {
  return `${pos.line}:${pos.character}`;
}
