/**
 * The messages between the dependency graph panel (graphPanel.ts) and its webview
 * (webview/graph.ts), typed once for both sides, with the guard for what the webview sends.
 * Must not know: VS Code or the DOM.
 */

import type { GraphJson } from "./graphModel";

export type ToGraphWebview =
  | { type: "loading"; scope: string }
  | {
      type: "graph";
      /** the folder asked for ("" = the whole workspace) */
      scope: string;
      graph: GraphJson;
      /** the server's counts before it cut the graph */
      nodeCount: number;
      edgeCount: number;
      /** the server cut the graph to fit */
      truncated: boolean;
    }
  | { type: "error"; scope: string; message: string; serverStopped: boolean };

export type FromGraphWebview =
  | { type: "ready" }
  | { type: "open"; module: string }
  | { type: "pickFolder" }
  | { type: "refresh" }
  | { type: "restartServer" };

export function parseFromGraphWebview(raw: unknown): FromGraphWebview | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case "ready":
    case "pickFolder":
    case "refresh":
    case "restartServer":
      return { type: m.type };
    case "open":
      return typeof m.module === "string" && m.module.length > 0 && m.module.length < 4096
        ? { type: "open", module: m.module }
        : undefined;
  }
  return undefined;
}
