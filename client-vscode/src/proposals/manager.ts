/**
 * Pending proposals and the user's decisions on them (DESIGN §4, §8, §9): each `agent/proposal`
 * opens its diff editor(s) by itself (one per file: original ↔ proposed), whose proposed side
 * is editable and carries the Accept / Reject and per-hunk Keep / Drop lenses (lenses.ts).
 * Accept checks the edit is not stale (the open document's version, else the lines the diff
 * was made from), then applies what the proposed side holds: the edit as sent, the kept
 * hunks (answered with their indexes) or the user's own text (a whole-document replacement,
 * answered with `content`), saves the touched documents, answers `agent/resolveProposal`
 * and closes the tabs. A stale edit is never forced: nothing is applied, the server is
 * answered (it judges again) and its answer is shown. Reject asks for an optional comment
 * (Escape keeps the proposal).
 * Must not know: runs, views (they read `pending()` and `onDidChange`).
 */

import * as path from "path";
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import type * as lsp from "vscode-languageclient/node";
import type { AgentCtx, Proposals } from "../ctx";
import { errorMessage } from "../log";
import {
  AgentResolveProposal,
  ContextKeys,
  Schemes,
  type ProposalInfo,
  type ProposalParams,
  type ProposalStatus,
  type ResolveProposalParams,
  type ResolveProposalResult,
} from "../protocol";
import { currentText, originalUri, parseProposalUri, ProposalDocuments, proposedUri } from "./documents";
import { HunkLenses } from "./lenses";
import { describeEdit, reviewOutcome } from "./review";
import { diffFor, findStale, hasHunks, parseUnifiedDiff, selectHunks, splitByFile } from "./workspaceEdit";

type Requester = Pick<AgentCtx, "request" | "log">;

export class ProposalManager implements Proposals, vscode.Disposable {
  private readonly items = new Map<string, ProposalInfo>();
  private readonly busy = new Set<string>();
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly documents: ProposalDocuments;
  readonly lenses: HunkLenses;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly ctx: Requester,
    private readonly client: () => LanguageClient | undefined,
  ) {
    this.documents = new ProposalDocuments((id) => this.items.get(id));
    this.lenses = new HunkLenses({
      accept: (id) => this.accept(id),
      reject: (id, comment) => this.reject(id, comment),
      title: (id) => this.items.get(id)?.title,
    });
    this.disposables.push(
      this.documents,
      this.lenses,
      this.emitter,
      vscode.window.tabGroups.onDidChangeTabs(() => this.updateActive()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateActive()),
    );
    this.updateContext();
  }

  pending(): ProposalInfo[] {
    return [...this.items.values()];
  }

  get(id: string): ProposalInfo | undefined {
    return this.items.get(id);
  }

  /** A new `agent/proposal`: remember it (titled by what it does) and open its diff. */
  receive(proposal: ProposalParams): void {
    if (!proposal || typeof proposal.id !== "string" || !proposal.edit) {
      this.ctx.log.warn(`an agent/proposal without id or edit was ignored: ${JSON.stringify(proposal)?.slice(0, 200)}`);
      return;
    }
    const title = describeEdit(proposal);
    this.items.set(proposal.id, { ...proposal, title, status: "pending", createdAt: Date.now() });
    this.ctx.log.info(`proposal ${proposal.id}${proposal.runId ? ` (run ${proposal.runId})` : ""}: ${title}`);
    this.changed();
    void this.open(proposal.id);
  }

  /** Decided elsewhere (e.g. its run was cancelled): it leaves the list, its tabs close. */
  resolvedElsewhere(id: string, status?: ProposalStatus): void {
    if (!this.items.has(id) || this.busy.has(id)) return;
    this.ctx.log.info(`proposal ${id} was resolved by the server${status ? ` (${status})` : ""}`);
    void this.finish(id);
  }

  /** The server stopped: nothing it proposed can be decided any more. */
  clear(): void {
    const ids = [...this.items.keys()];
    if (!ids.length) return;
    this.items.clear();
    void this.closeTabs(new Set(ids));
    this.changed();
  }

  async open(id: string): Promise<void> {
    const proposal = this.items.get(id);
    if (!proposal) return this.gone(id);
    const files = splitByFile(proposal.edit);
    for (const [index, file] of files.entries()) {
      const target = vscode.Uri.parse(file.uri);
      const left = file.create ? originalUri(id, target) : target;
      const right = proposedUri(id, target, index);
      const name = path.posix.basename(target.path);
      const which = files.length > 1 ? ` (${index + 1}/${files.length})` : "";
      const title = `${name} ↔ proposed${which}`;
      try {
        const original = file.create ? "" : (await currentText(target)).text;
        const hunks = (proposal.hunks ?? []).filter((h) => h.uri === file.uri);
        this.lenses.init(right, original, hunks, proposal.hunks?.length ?? 0);
        await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: false });
      } catch (err) {
        this.ctx.log.error(`could not open the diff of proposal ${id}: ${errorMessage(err)}`);
        void vscode.window.showErrorMessage(`agentls: the diff of "${proposal.title}" could not be opened: ${errorMessage(err)}`);
      }
    }
    this.updateActive();
  }

  /**
   * Apply what the proposal's diff shows now and answer the server: the edit as sent, the
   * hunks kept (`hunks`: these only, as if the others were dropped), or the user's own text.
   */
  async accept(id: string, hunks?: number[]): Promise<void> {
    const proposal = this.items.get(id);
    if (!proposal) return this.gone(id);
    if (this.busy.has(id)) return;
    this.busy.add(id);
    try {
      const all = splitByFile(proposal.edit);
      const diffs = parseUnifiedDiff(proposal.diff ?? "");
      const problems: string[] = [];
      const review: { file: (typeof all)[number]; original: string; shown: string }[] = [];
      for (const [index, file] of all.entries()) {
        const uri = vscode.Uri.parse(file.uri);
        const current = await currentText(uri);
        const why = findStale(file, current, hunks ? undefined : diffFor(diffs, file.uri), vscode.workspace.asRelativePath(uri));
        if (why) problems.push(why);
        const shown = await this.documents.shown(proposedUri(id, uri, index));
        review.push({ file, original: file.create ? "" : current.text, shown });
      }
      const params: ResolveProposalParams = { id, decision: "accepted" };
      let outcome = reviewOutcome(review, proposal.hunks ?? [], this.lenses.droppedOf(id));
      if (hunks) outcome = { kind: "hunks", hunks };
      if (outcome.kind === "nothing") {
        this.busy.delete(id);
        return await this.reject(id, "");
      }
      if (outcome.kind === "hunks") params.hunks = [...new Set(outcome.hunks)].sort((a, b) => a - b);
      if (problems.length) {
        // never forced: nothing is applied; the server judges again and says what it did
        this.ctx.log.warn(`proposal ${id} is stale: ${problems.join("; ")}`);
        const result = await this.answer(params);
        if (result.status === "applied") await this.save(all.map((f) => f.uri));
        await this.finish(id);
        this.report(proposal, result, `it is stale — ${problems.join("; ")}`);
        return;
      }
      let applied: boolean;
      if (outcome.kind === "content") {
        // the user's text, whole: each file becomes what its proposed side holds
        const edit = new vscode.WorkspaceEdit();
        params.content = {};
        for (const { file, shown } of review) {
          const uri = vscode.Uri.parse(file.uri);
          params.content[file.uri] = shown;
          if (file.create) {
            edit.createFile(uri, { ignoreIfExists: true });
            edit.insert(uri, new vscode.Position(0, 0), shown);
          } else {
            const doc = await vscode.workspace.openTextDocument(uri);
            edit.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), shown);
          }
        }
        applied = await vscode.workspace.applyEdit(edit);
      } else {
        const chosen = outcome.kind === "hunks" ? selectHunks(proposal, outcome.hunks) : proposal.edit;
        const client = this.client();
        if (!client) throw new Error("the agentls server is not running");
        const converted = await client.protocol2CodeConverter.asWorkspaceEdit(chosen as unknown as lsp.WorkspaceEdit);
        applied = await vscode.workspace.applyEdit(converted);
      }
      if (!applied) {
        this.ctx.log.warn(`VS Code did not apply proposal ${id}; asking the server to judge it`);
      } else {
        await this.save(all.map((f) => f.uri));
      }
      const result = await this.answer(params);
      await this.finish(id);
      this.report(proposal, result, applied ? undefined : "VS Code could not apply the edit");
    } catch (err) {
      this.ctx.log.error(`accepting proposal ${id}: ${errorMessage(err)}`);
      void vscode.window.showErrorMessage(`agentls: "${proposal.title}" could not be accepted: ${errorMessage(err)}`);
    } finally {
      this.busy.delete(id);
    }
  }

  async reject(id: string, comment?: string): Promise<void> {
    const proposal = this.items.get(id);
    if (!proposal) return this.gone(id);
    if (this.busy.has(id)) return;
    if (comment === undefined) {
      const typed = await vscode.window.showInputBox({
        title: `Reject: ${proposal.title}`,
        prompt: "Tell the agent why, or what to do instead (optional). Enter rejects; Escape keeps the proposal.",
        placeHolder: "optional comment for the agent",
        ignoreFocusOut: true,
      });
      if (typed === undefined) return; // Escape: no rejection
      comment = typed;
    }
    if (!this.items.has(id)) return this.gone(id);
    this.busy.add(id);
    try {
      const params: ResolveProposalParams = { id, decision: "rejected" };
      if (comment.trim()) params.comment = comment.trim();
      const result = await this.answer(params);
      await this.finish(id);
      this.report(proposal, result);
    } catch (err) {
      this.ctx.log.error(`rejecting proposal ${id}: ${errorMessage(err)}`);
      void vscode.window.showErrorMessage(`agentls: "${proposal.title}" could not be rejected: ${errorMessage(err)}`);
    } finally {
      this.busy.delete(id);
    }
  }

  keepHunk(uri: string, index: number): Promise<void> {
    return this.lenses.keep(uri, index);
  }

  dropHunk(uri: string, index: number): Promise<void> {
    return this.lenses.drop(uri, index);
  }

  /** The proposal the active editor tab shows, if any. */
  activeProposalId(): string | undefined {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const uri =
      input instanceof vscode.TabInputTextDiff ? input.modified : input instanceof vscode.TabInputText ? input.uri : undefined;
    const ref = uri && parseProposalUri(uri);
    return ref && this.items.has(ref.id) ? ref.id : undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  // --- internals -------------------------------------------------------------------------------
  private async answer(params: ResolveProposalParams): Promise<ResolveProposalResult> {
    const result = await this.ctx.request(AgentResolveProposal, params);
    this.ctx.log.info(`proposal ${params.id}: ${params.decision}${params.hunks ? ` hunks ${params.hunks.join(",")}` : ""}${params.content ? " with the user's text" : ""} → ${result.status}`);
    return result;
  }

  private report(proposal: ProposalInfo, result: ResolveProposalResult, problem?: string): void {
    const title = proposal.title;
    // applied and rejected show in the Agent view (its run's facts): no second status item
    if (result.status === "applied" || result.status === "rejected") return;
    if (result.status === "stale") {
      void vscode.window.showWarningMessage(
        `agentls: "${title}" was not applied: ${problem ?? "the file changed since the agent proposed it"}. ` +
          "The agent was told the proposal is stale.",
      );
    } else {
      void vscode.window.showWarningMessage(`agentls: "${title}" is ${result.status}${problem ? ` (${problem})` : ""}.`);
    }
  }

  private async save(uris: string[]): Promise<void> {
    for (const raw of new Set(uris)) {
      const uri = vscode.Uri.parse(raw);
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      // save() is false also when the document was saved meanwhile: only a still-dirty one failed
      if (doc?.isDirty && !(await doc.save()) && doc.isDirty) {
        void vscode.window.showWarningMessage(`agentls: ${vscode.workspace.asRelativePath(uri)} was changed but could not be saved.`);
      }
    }
  }

  private async finish(id: string): Promise<void> {
    if (this.items.delete(id)) this.changed();
    // an edited proposed side is saved (in memory) first, so closing it asks nothing
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === Schemes.proposal && doc.isDirty && parseProposalUri(doc.uri)?.id === id) await doc.save();
    }
    await this.closeTabs(new Set([id]));
    this.lenses.forget(id);
    this.documents.forget(id);
  }

  private async closeTabs(ids: Set<string>): Promise<void> {
    const tabs: vscode.Tab[] = [];
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        const uri =
          input instanceof vscode.TabInputTextDiff ? input.modified : input instanceof vscode.TabInputText ? input.uri : undefined;
        const ref = uri && uri.scheme === Schemes.proposal ? parseProposalUri(uri) : undefined;
        if (ref && ids.has(ref.id)) tabs.push(tab);
      }
    }
    if (!tabs.length) return;
    try {
      await vscode.window.tabGroups.close(tabs, true);
    } catch (err) {
      this.ctx.log.warn(`could not close a proposal's diff: ${errorMessage(err)}`);
    }
  }

  private gone(id: string): void {
    void vscode.window.showInformationMessage(`agentls: proposal ${id} is no longer pending (it was decided already).`);
  }

  private changed(): void {
    this.updateContext();
    this.emitter.fire();
  }

  private updateContext(): void {
    void vscode.commands.executeCommand("setContext", ContextKeys.pendingProposals, this.items.size > 0);
    this.updateActive();
  }

  private updateActive(): void {
    const id = this.activeProposalId();
    const proposal = id ? this.items.get(id) : undefined;
    void vscode.commands.executeCommand("setContext", ContextKeys.proposalHasHunks, !!proposal && hasHunks(proposal));
  }
}
