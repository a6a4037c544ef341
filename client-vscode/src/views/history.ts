/**
 * The goal box's history: the last goals run (newest last, at most 50, no repeats), walked
 * like a shell's — Up at the start of the box goes to older goals, Down at the end back to
 * newer ones and finally to what was being typed. The extension keeps the list in
 * workspaceState; the webview walks it.
 * Must not know: VS Code or the DOM (unit-tested as plain data).
 */

export const HISTORY_LIMIT = 50;

/** `goal` appended to `entries` (a repeat moves to the end), trimmed to the newest `limit`. */
export function remember(entries: readonly string[], goal: string, limit = HISTORY_LIMIT): string[] {
  const text = goal.trim();
  if (!text) return [...entries].slice(-limit);
  return [...entries.filter((e) => e !== text), text].slice(-limit);
}

/** A cursor over the history; `position === entries.length` is the draft being typed. */
export class GoalHistory {
  private entries: string[];
  private position: number;
  private draft = "";

  constructor(entries: readonly string[] = []) {
    this.entries = [...entries];
    this.position = this.entries.length;
  }

  /** Replace the list (e.g. after the extension stored a new goal) and go back to the draft. */
  reset(entries: readonly string[]): void {
    this.entries = [...entries];
    this.position = this.entries.length;
    this.draft = "";
  }

  get length(): number {
    return this.entries.length;
  }

  /** true while showing the draft, not a remembered goal */
  get atDraft(): boolean {
    return this.position === this.entries.length;
  }

  /** One older goal; `current` is the box's text (kept as the draft when leaving it). */
  older(current: string): string | undefined {
    if (this.position === 0) return undefined;
    if (this.atDraft) this.draft = current;
    this.position -= 1;
    return this.entries[this.position];
  }

  /** One newer goal, or the draft after the newest; undefined when already at the draft. */
  newer(): string | undefined {
    if (this.atDraft) return undefined;
    this.position += 1;
    return this.atDraft ? this.draft : this.entries[this.position];
  }
}

/**
 * Which way a key walks the history, given the caret: Up only with the caret at the very start
 * of the box, Down only at the very end (so multi-line goals stay editable with the arrows).
 */
export function historyKey(
  key: string,
  caret: { start: number; end: number; length: number },
  modifiers = false,
): "older" | "newer" | undefined {
  if (modifiers || caret.start !== caret.end) return undefined;
  if (key === "ArrowUp" && caret.start === 0) return "older";
  if (key === "ArrowDown" && caret.end === caret.length) return "newer";
  return undefined;
}
