/**
 * The review inside the diff: CodeLenses on the proposed side — at the top "Accept" /
 * "Reject" with what the edit does, and at each hunk "✓ Keep" / "✗ Drop". ✗ puts the
 * original text back in the proposed document (so what Accept applies is what the user
 * sees); ✓ marks the hunk kept. Once every hunk has been decided the proposal is answered:
 * the kept hunks (or the user's text, if they also typed), or a rejection if none is kept.
 * The hunks' places follow the user's typing (review.ts shiftPlaces).
 * Must not know: how a proposal is applied (the manager's accept/reject do that).
 */

import * as vscode from "vscode";
import { Commands, Schemes, type Hunk } from "../protocol";
import { parseProposalUri } from "./documents";
import { hunkPlaces, shiftPlaces, type HunkPlace } from "./review";

interface Decide {
  accept(id: string): Promise<void>;
  reject(id: string, comment?: string): Promise<void>;
  title(id: string): string | undefined;
}

export class HunkLenses implements vscode.CodeLensProvider, vscode.HoverProvider, vscode.Disposable {
  /** places of the hunks not decided yet, per proposed document */
  private readonly places = new Map<string, HunkPlace[]>();
  private readonly kept = new Map<string, Set<number>>();
  private readonly dropped = new Map<string, Set<number>>();
  private readonly total = new Map<string, number>();
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly decide: Decide) {
    this.disposables = [
      this.emitter,
      vscode.languages.registerCodeLensProvider({ scheme: Schemes.proposal }, this),
      // the same choices on hover, for diff editors whose lenses are off (diffEditor.codeLens)
      vscode.languages.registerHoverProvider({ scheme: Schemes.proposal }, this),
      vscode.workspace.onDidChangeTextDocument((e) => this.track(e)),
    ];
  }

  /** A proposed document is opened: its hunks (those of its file) and where they sit. */
  init(uri: vscode.Uri, original: string, hunks: readonly Hunk[], proposalHunks: number): void {
    const ref = parseProposalUri(uri);
    if (!ref) return;
    if (this.places.has(uri.toString())) return; // reopened: keep the review so far
    try {
      this.places.set(uri.toString(), hunkPlaces(original, hunks));
    } catch {
      this.places.set(uri.toString(), []);
    }
    this.total.set(ref.id, proposalHunks);
    this.emitter.fire();
  }

  /** Hunks the user dropped (✗) in a proposal. */
  droppedOf(id: string): ReadonlySet<number> {
    return this.dropped.get(id) ?? new Set();
  }

  forget(id: string): void {
    for (const key of [...this.places.keys()]) if (parseProposalUri(vscode.Uri.parse(key))?.id === id) this.places.delete(key);
    this.kept.delete(id);
    this.dropped.delete(id);
    this.total.delete(id);
    this.emitter.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const ref = parseProposalUri(doc.uri);
    const title = ref && this.decide.title(ref.id);
    if (!ref || title === undefined) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [
      new vscode.CodeLens(top, { title: "$(check) Accept", command: Commands.acceptProposal, arguments: [ref.id], tooltip: "Apply this edit (as it stands here, with your changes) and save" }),
      new vscode.CodeLens(top, { title: "$(close) Reject", command: Commands.rejectProposal, arguments: [ref.id], tooltip: "Reject the edit; you may tell the agent why" }),
      new vscode.CodeLens(top, { title, command: "", tooltip: "What the agent proposes. You can edit the text on this side before accepting." }),
    ];
    const places = this.places.get(doc.uri.toString()) ?? [];
    const kept = this.kept.get(ref.id) ?? new Set<number>();
    if (places.length + (this.dropped.get(ref.id)?.size ?? 0) > 1) {
      for (const place of places) {
        const line = Math.min(place.start, Math.max(doc.lineCount - 1, 0));
        const at = new vscode.Range(line, 0, line, 0);
        if (kept.has(place.index)) {
          lenses.push(new vscode.CodeLens(at, { title: "$(pass-filled) kept", command: "" }));
          continue;
        }
        lenses.push(
          new vscode.CodeLens(at, { title: "$(check) Keep", command: Commands.keepHunk, arguments: [doc.uri.toString(), place.index], tooltip: "Keep this change" }),
          new vscode.CodeLens(at, { title: "$(close) Drop", command: Commands.dropHunk, arguments: [doc.uri.toString(), place.index], tooltip: "Put the original text back here" }),
        );
      }
    }
    return lenses;
  }

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const ref = parseProposalUri(doc.uri);
    const title = ref && this.decide.title(ref.id);
    if (!ref || title === undefined) return undefined;
    const link = (label: string, command: string, args: unknown[]) =>
      `[${label}](command:${command}?${encodeURIComponent(JSON.stringify(args))})`;
    const place = (this.places.get(doc.uri.toString()) ?? []).find((p) => pos.line >= p.start && pos.line < Math.max(p.end, p.start + 1));
    if (!place) return undefined; // only over a change, not wherever the user types
    const parts = [`**${title}**`, "", `${link("$(check) Accept", Commands.acceptProposal, [ref.id])} · ${link("$(close) Reject", Commands.rejectProposal, [ref.id])}`];
    if ((this.total.get(ref.id) ?? 0) > 1 && !this.kept.get(ref.id)?.has(place.index)) {
      parts.push("", `This change: ${link("$(check) Keep", Commands.keepHunk, [doc.uri.toString(), place.index])} · ${link("$(close) Drop", Commands.dropHunk, [doc.uri.toString(), place.index])}`);
    }
    const md = new vscode.MarkdownString(parts.join("\n"), true);
    md.isTrusted = { enabledCommands: [Commands.acceptProposal, Commands.rejectProposal, Commands.keepHunk, Commands.dropHunk] };
    return new vscode.Hover(md);
  }

  async keep(uri: string, index: number): Promise<void> {
    const ref = parseProposalUri(vscode.Uri.parse(uri));
    if (!ref) return;
    this.set(this.kept, ref.id).add(index);
    this.emitter.fire();
    await this.maybeDone(ref.id);
  }

  async drop(uri: string, index: number): Promise<void> {
    const target = vscode.Uri.parse(uri);
    const ref = parseProposalUri(target);
    const places = this.places.get(uri);
    const place = places?.find((p) => p.index === index);
    if (!ref || !places || !place) return;
    const doc = await vscode.workspace.openTextDocument(target);
    const start = new vscode.Position(Math.min(place.start, doc.lineCount - 1), place.startChar);
    const startOffset = doc.offsetAt(start);
    const holds = doc.getText().slice(startOffset, startOffset + place.newText.length) === place.newText;
    const range = holds
      ? new vscode.Range(start, doc.positionAt(startOffset + place.newText.length))
      : new vscode.Range(place.start, 0, Math.min(place.end, doc.lineCount), 0);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(target, range, place.oldText);
    this.set(this.dropped, ref.id).add(index);
    // the place leaves before the edit, so the shift below moves only the others
    this.places.set(uri, places.filter((p) => p !== place));
    await vscode.workspace.applyEdit(edit);
    this.emitter.fire();
    await this.maybeDone(ref.id);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private set(map: Map<string, Set<number>>, id: string): Set<number> {
    let s = map.get(id);
    if (!s) map.set(id, (s = new Set()));
    return s;
  }

  /** Every hunk decided: answer the proposal. */
  private async maybeDone(id: string): Promise<void> {
    const kept = this.kept.get(id)?.size ?? 0;
    const dropped = this.dropped.get(id)?.size ?? 0;
    const total = this.total.get(id) ?? 0;
    if (!total || kept + dropped < total) return;
    if (kept === 0) await this.decide.reject(id, "");
    else await this.decide.accept(id);
  }

  private track(e: vscode.TextDocumentChangeEvent): void {
    if (e.document.uri.scheme !== Schemes.proposal) return;
    const key = e.document.uri.toString();
    let places = this.places.get(key);
    if (!places?.length || !e.contentChanges.length) return;
    for (const c of e.contentChanges) {
      places = shiftPlaces(places, {
        startLine: c.range.start.line,
        endLine: c.range.end.line,
        insertedLines: (c.text.match(/\n/g) ?? []).length,
      });
    }
    this.places.set(key, places);
    this.emitter.fire();
  }
}
