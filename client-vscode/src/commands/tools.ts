/** Agent: Show Tools — the server's tools (agent/tools): description, category, enabled or why not. */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { AgentTools } from "../protocol";

export function showTools(ctx: AgentCtx) {
  return async (): Promise<void> => {
    const { tools } = await ctx.request(AgentTools, {});
    const sorted = [...tools].sort((a, b) => a.category.localeCompare(b.category) || a.name.localeCompare(b.name));
    const enabled = sorted.filter((t) => t.enabled).length;
    await vscode.window.showQuickPick(
      sorted.map((tool) => ({
        label: `${tool.enabled ? "$(check)" : "$(circle-slash)"} ${tool.name}`,
        description: tool.enabled ? tool.category : `${tool.category} — disabled: ${tool.disabledReason ?? "no reason given"}`,
        detail: `${summary(tool.description)}${tool.permissions.length ? ` (needs ${tool.permissions.join(", ")})` : ""}`,
      })),
      { title: `Agent tools: ${enabled} of ${tools.length} enabled`, matchOnDescription: true, matchOnDetail: true },
    );
  };
}

/** A tool description's first paragraph on one line (descriptions are docstrings). */
function summary(description: string): string {
  return (description.split(/\n\s*\n/)[0] ?? "").replace(/\s+/g, " ").trim();
}
