/**
 * The views of the extension, wired in one call from activate(): the Agent webview view,
 * the Runs and Proposals trees, run transcripts (document provider + agentls.openTranscript)
 * and the dependency graph panel (agentls.showDependencyGraph).
 * Must not know: the language client or how commands of the core work.
 */

import type { AgentCtx } from "../ctx";
import { registerAgentView } from "./agentView";
import { registerGraphPanel } from "./graphPanel";
import { registerProposalsTree } from "./proposalsTree";
import { registerRunsTree } from "./runsTree";
import { registerTranscripts } from "./transcript";

export function registerViews(ctx: AgentCtx): void {
  ctx.extension.subscriptions.push(
    registerAgentView(ctx),
    registerRunsTree(ctx),
    registerProposalsTree(ctx),
    registerTranscripts(ctx),
    registerGraphPanel(ctx),
  );
}
