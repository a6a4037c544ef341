/**
 * What a command acts on: its argument (a tree item, a URI, an id) or the user's pick.
 * Runs: the argument, else the only candidate, else a quick pick. Proposals: the argument,
 * else the proposal the active diff shows, else the only pending one, else a quick pick.
 * Must not know: what the commands then do.
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import type { RunInfo } from "../runs/runStore";
import { parseProposalUri } from "../proposals/documents";
import { shorten } from "../runs/format";

/** A run id from a command argument: "run-…", {runId}, {run: {runId}}. */
export function runIdFrom(arg: unknown): string | undefined {
  if (typeof arg === "string" && arg) return arg;
  if (typeof arg === "object" && arg !== null) {
    const o = arg as { runId?: unknown; run?: { runId?: unknown } };
    if (typeof o.runId === "string") return o.runId;
    if (typeof o.run?.runId === "string") return o.run.runId;
  }
  return undefined;
}

export async function pickRun(runs: RunInfo[], placeHolder: string): Promise<RunInfo | undefined> {
  if (runs.length <= 1) return runs[0];
  const items = runs.map((run) => ({
    label: shorten(run.goal || run.runId, 80),
    description: `${run.status} · ${run.steps} step${run.steps === 1 ? "" : "s"}`,
    detail: run.runId,
    run,
  }));
  const chosen = await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true });
  return chosen?.run;
}

/** A proposal id from a command argument: "prop-…", a proposal URI, {id}, {proposal: {id}}. */
export function proposalIdFrom(arg: unknown): string | undefined {
  if (typeof arg === "string" && arg) return arg;
  if (arg instanceof vscode.Uri) return parseProposalUri(arg)?.id;
  if (typeof arg === "object" && arg !== null) {
    const o = arg as { id?: unknown; proposalId?: unknown; proposal?: { id?: unknown } };
    if (typeof o.proposalId === "string") return o.proposalId;
    if (typeof o.proposal?.id === "string") return o.proposal.id;
    if (typeof o.id === "string") return o.id;
  }
  return undefined;
}

export async function pickProposal(ctx: AgentCtx, arg: unknown, activeId: string | undefined, verb: string): Promise<string | undefined> {
  const given = proposalIdFrom(arg);
  if (given) return given;
  if (activeId) return activeId;
  const pending = ctx.proposals.pending();
  if (pending.length === 0) {
    void vscode.window.showInformationMessage("agentls: no proposal is pending.");
    return undefined;
  }
  if (pending.length === 1) return pending[0].id;
  const chosen = await vscode.window.showQuickPick(
    pending.map((p) => ({ label: p.title, description: vscode.workspace.asRelativePath(vscode.Uri.parse(p.uri)), detail: p.id, id: p.id })),
    { placeHolder: `Which proposal to ${verb}?` },
  );
  return chosen?.id;
}
