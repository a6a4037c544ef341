/**
 * Accept, Reject and Open Proposal Diff: from the diff editor's title bar (the argument is
 * the proposed document's URI), the lenses above the change (the proposal id), the Agent
 * view or the palette (the active diff's proposal, else a pick). Per-hunk Keep / Drop are
 * the lenses' own (proposals/lenses.ts). The decisions themselves are ctx.proposals'.
 */

import type { AgentCtx } from "../ctx";
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
