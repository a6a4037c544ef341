/**
 * The HTML shell of the webviews: a strict Content-Security-Policy (no inline scripts, one
 * nonce for our bundled script, styles and images only from the extension), the stylesheet
 * and the script. Nothing else is ever put in the page as HTML: the scripts build the DOM.
 * Must not know: VS Code (URIs arrive as strings; unit-tested).
 */

import { randomBytes } from "node:crypto";

export function nonce(): string {
  return randomBytes(18).toString("base64").replace(/[^A-Za-z0-9]/g, "");
}

export interface ShellOptions {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  title: string;
  scriptUri: string;
  styleUris: string[];
  /** mermaid injects <style> into its SVG: the graph needs 'unsafe-inline' styles (never scripts) */
  inlineStyles?: boolean;
  /** the page body's data-* attributes (initial state the script reads) */
  data?: Record<string, string>;
}

export function csp(o: Pick<ShellOptions, "cspSource" | "nonce" | "inlineStyles">): string {
  return [
    "default-src 'none'",
    `style-src ${o.cspSource}${o.inlineStyles ? " 'unsafe-inline'" : ""}`,
    `script-src 'nonce-${o.nonce}'`,
    `img-src ${o.cspSource} data:`,
    `font-src ${o.cspSource}`,
  ].join("; ");
}

export function escapeAttr(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function shell(o: ShellOptions): string {
  const data = Object.entries(o.data ?? {})
    .map(([k, v]) => ` data-${k.replace(/[^a-z0-9-]/g, "")}="${escapeAttr(v)}"`)
    .join("");
  const styles = o.styleUris.map((u) => `<link rel="stylesheet" href="${escapeAttr(u)}">`).join("\n  ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp(o))}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  ${styles}
  <title>${escapeAttr(o.title)}</title>
</head>
<body${data}>
  <script nonce="${escapeAttr(o.nonce)}" src="${escapeAttr(o.scriptUri)}"></script>
</body>
</html>`;
}
