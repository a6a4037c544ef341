/**
 * Mentions in a goal (DESIGN §9): `@path/to/file`, `@symbol:Name`, `@problems`, `@diff`,
 * `@url:https://…`. `mentionsIn` lists the ones a goal names (sent as `context.mentions`;
 * the server resolves them and warns about any it cannot); `mentionQuery` finds the `@…`
 * being typed at the cursor, and `completeMention` puts the chosen token in its place.
 * Must not know: VS Code or the DOM (the Agent view's webview bundles it).
 */

/** The kinds without an argument, offered first. */
export const FIXED_MENTIONS = [
  { insert: "@problems", detail: "the diagnostics of open documents" },
  { insert: "@diff", detail: "the working tree's git diff" },
  { insert: "@url:", detail: "a web page, fetched under the web policy" },
] as const;

const TOKEN = /(^|\s)(@(?:url:\S+|symbol:[\w.$]+|problems\b|diff\b|[\w./-]*[\w/-][\w./-]*))/g;

/** The mention tokens of a goal, in order, each once. */
export function mentionsIn(goal: string): string[] {
  const out: string[] = [];
  for (const m of goal.matchAll(TOKEN)) {
    const token = m[2].replace(/[.,;:!?)]+$/, "");
    if (token.length > 1 && token !== "@url:" && !out.includes(token)) out.push(token);
  }
  return out;
}

/** The `@…` word that ends at `cursor`, if any: its start and what follows the `@`. */
export function mentionQuery(text: string, cursor: number): { start: number; query: string } | undefined {
  const before = text.slice(0, cursor);
  const m = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!m) return undefined;
  return { start: cursor - m[2].length - 1, query: m[2] };
}

/** The text with the `@…` at [start, cursor) replaced by `token` and a space; the new cursor. */
export function completeMention(text: string, start: number, cursor: number, token: string): { text: string; cursor: number } {
  const tail = text.slice(cursor);
  const sep = token.endsWith(":") || tail.startsWith(" ") ? "" : " ";
  const next = `${text.slice(0, start)}${token}${sep}${tail}`;
  return { text: next, cursor: start + token.length + sep.length };
}

/** A file or symbol as a mention token. */
export function fileMention(relativePath: string): string {
  return `@${relativePath}`;
}
export function symbolMention(name: string): string {
  return `@symbol:${name}`;
}
