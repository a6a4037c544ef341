/**
 * The few DOM helpers the webview scripts share: build an element with attributes and
 * children (text always goes in as text, never as HTML), find one by id, a status glyph.
 * Must not know: VS Code or what the views show.
 */

export type Attrs = Record<string, string | boolean | undefined>;
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "class") node.className = String(v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}
export function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

const STATUS_GLYPH: Record<string, string> = {
  running: "⟳",
  completed: "✓",
  done: "✓",
  ok: "✓",
  failed: "✗",
  error: "✗",
  cancelled: "⊘",
  budget_exhausted: "⚠",
  pending: "○",
  skipped: "↷",
  rejected: "⊘",
};
export function glyph(status: string): HTMLElement {
  return el("span", { class: `glyph glyph-${status}`, "aria-hidden": "true" }, STATUS_GLYPH[status] ?? "•");
}
