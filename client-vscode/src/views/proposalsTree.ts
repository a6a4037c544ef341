/**
 * The Proposals tree (Views.proposals): the pending proposals from ctx.proposals, live.
 * Label = title, description = the file's relative path, contextValue `proposal` (the
 * inline Open / Accept / Reject menus key on it); clicking opens the diff.
 * Agreed with the core: agentls.openProposal / acceptProposal / rejectProposal accept a
 * proposal id string OR a tree element with `.proposalId` (what the menus pass).
 * Must not know: how proposals are applied (ctx.proposals and the core's commands do it).
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { Commands, Views } from "../protocol";
import { proposalPath } from "./format";

/** The tree's element, and what its menu commands receive. */
export interface ProposalNode {
  proposalId: string;
}

export class ProposalsTreeProvider implements vscode.TreeDataProvider<ProposalNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<ProposalNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  private readonly nodes = new Map<string, ProposalNode>();

  constructor(private readonly ctx: AgentCtx) {
    this.subscription = ctx.proposals.onDidChange(() => this.emitter.fire(undefined));
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }

  getChildren(element?: ProposalNode): ProposalNode[] {
    if (element) return [];
    const pending = this.ctx.proposals.pending();
    const live = new Set(pending.map((p) => p.id));
    for (const id of [...this.nodes.keys()]) if (!live.has(id)) this.nodes.delete(id);
    return pending.map((p) => {
      let node = this.nodes.get(p.id);
      if (!node) this.nodes.set(p.id, (node = { proposalId: p.id }));
      return node;
    });
  }

  getTreeItem(element: ProposalNode): vscode.TreeItem {
    const p = this.ctx.proposals.get(element.proposalId);
    if (!p) return new vscode.TreeItem("(resolved)");
    const item = new vscode.TreeItem(p.title || "Edit", vscode.TreeItemCollapsibleState.None);
    item.id = `proposal:${p.id}`;
    const path = proposalPath(p, (uri) => vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false));
    item.description = path;
    const tip = new vscode.MarkdownString();
    tip.appendText(`${p.title}\n${path}${p.runId ? `\nrun ${p.runId}` : ""}\n\n`);
    tip.appendCodeblock(p.diff.length > 3000 ? `${p.diff.slice(0, 3000)}\n…` : p.diff, "diff");
    item.tooltip = tip;
    item.iconPath = new vscode.ThemeIcon("diff");
    item.contextValue = "proposal";
    item.command = { command: Commands.openProposal, title: "Open Proposal Diff", arguments: [p.id] };
    return item;
  }
}

export function registerProposalsTree(ctx: AgentCtx): vscode.Disposable {
  const provider = new ProposalsTreeProvider(ctx);
  const view = vscode.window.createTreeView(Views.proposals, { treeDataProvider: provider });
  const badge = (): void => {
    const n = ctx.proposals.pending().length;
    view.badge = n ? { value: n, tooltip: `${n} pending proposal${n === 1 ? "" : "s"}` } : undefined;
  };
  badge();
  return vscode.Disposable.from(provider, view, ctx.proposals.onDidChange(badge));
}
