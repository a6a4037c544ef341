/**
 * Accept, Reject, Accept Selected Hunks… and Open Proposal Diff: from the diff editor's
 * title bar (the argument is the proposed document's URI), the Proposals view (its item)
 * or the palette (the active diff's proposal, else a pick). The decisions themselves are
 * ctx.proposals'.
 */

import * as path from "path";
import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { describeHunk, hasHunks } from "../proposals/workspaceEdit";
import { pickProposal } from "./pick";

type Active = () => string | undefined;

export function acceptProposal(ctx: AgentCtx, active: Active) {
  return async (arg?: unknown): Promise<void> => {
    const id = await pickProposal(ctx, arg, active(), "accept");
    if (id) await ctx.proposals.accept(id);
  };
}

export function rejectProposal(ctx: AgentCtx, active: Active) {
  return async (arg?: unknown): Promise<void> => {
    const id = await pickProposal(ctx, arg, active(), "reject");
    if (id) await ctx.proposals.reject(id);
  };
}

export function openProposal(ctx: AgentCtx, active: Active) {
  return async (arg?: unknown): Promise<void> => {
    const id = await pickProposal(ctx, arg, active(), "open");
    if (id) await ctx.proposals.open(id);
  };
}

export function acceptHunks(ctx: AgentCtx, active: Active) {
  return async (arg?: unknown): Promise<void> => {
    const id = await pickProposal(ctx, arg, active(), "review hunk by hunk");
    const proposal = id ? ctx.proposals.get(id) : undefined;
    if (!id || !proposal) return;
    if (!hasHunks(proposal)) {
      const choice = await vscode.window.showInformationMessage(
        `agentls: "${proposal.title}" comes as one edit (the server sent no hunks); it can only be accepted or rejected whole.`,
        "Accept All",
      );
      if (choice) await ctx.proposals.accept(id);
      return;
    }
    const items = proposal.hunks.map((hunk) => {
      const { label, detail } = describeHunk(hunk, path.posix.basename(vscode.Uri.parse(hunk.uri).path));
      return { label, detail, picked: true, index: hunk.index };
    });
    const chosen = await vscode.window.showQuickPick(items, {
      title: `Accept which hunks of "${proposal.title}"?`,
      canPickMany: true,
      ignoreFocusOut: true,
    });
    if (!chosen) return;
    if (chosen.length === 0) {
      void vscode.window.showInformationMessage("agentls: no hunk chosen; the proposal stays pending (use Reject to decline it).");
      return;
    }
    await ctx.proposals.accept(
      id,
      chosen.map((c) => c.index),
    );
  };
}
