/**
 * The views of the extension, wired in one call from activate(): the Agent webview view
 * (the one list of sessions, runs and pending proposals), run transcripts (document provider + agentls.openTranscript)
 * and the dependency graph panel (agentls.showDependencyGraph).
 * Must not know: the language client or how commands of the core work.
 */

import type { AgentCtx } from "../ctx";
import { registerAgentView } from "./agentView";
import { registerGraphPanel } from "./graphPanel";
import { registerTranscripts } from "./transcript";

export function registerViews(ctx: AgentCtx): void {
  ctx.extension.subscriptions.push(
    registerAgentView(ctx),
    registerTranscripts(ctx),
    registerGraphPanel(ctx),
  );
}
