/**
 * The documents of a proposal's diff editor: the proposed side
 * (`agentls-proposal:<path>?id=<proposalId>&file=<n>`, the original text with the file's
 * edits applied) and, for a file that does not exist yet, an empty original side
 * (`agentls-original:<path>?id=…`). Both are read-only virtual documents; the path keeps
 * the file's name, so the language and the tab title are the file's.
 * Must not know: how proposals are decided.
 */

import * as vscode from "vscode";
import type { ProposalParams } from "../protocol";
import { Schemes } from "../protocol";
import { proposedText, splitByFile, type FileChange } from "./workspaceEdit";

export function proposedUri(proposalId: string, file: vscode.Uri, index: number): vscode.Uri {
  return vscode.Uri.from({ scheme: Schemes.proposal, path: file.path, query: `id=${encodeURIComponent(proposalId)}&file=${index}` });
}

export function originalUri(proposalId: string, file: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: Schemes.original, path: file.path, query: `id=${encodeURIComponent(proposalId)}` });
}

/** The proposal id and file index a proposal document names. */
export function parseProposalUri(uri: vscode.Uri): { id: string; file: number } | undefined {
  if (uri.scheme !== Schemes.proposal && uri.scheme !== Schemes.original) return undefined;
  const query = new URLSearchParams(uri.query);
  const id = query.get("id");
  return id ? { id, file: Number(query.get("file") ?? 0) || 0 } : undefined;
}

/** A document as it is now: the open buffer (with its version) or the file on disk. */
export interface CurrentText {
  version: number | null;
  text: string;
  exists: boolean;
}

export async function currentText(uri: vscode.Uri): Promise<CurrentText> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return { version: open.version, text: open.getText(), exists: true };
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    return { version: null, text: new TextDecoder("utf-8").decode(bytes), exists: true };
  } catch {
    return { version: null, text: "", exists: false };
  }
}

export class ProposalDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly registrations: vscode.Disposable[];

  constructor(private readonly lookup: (id: string) => ProposalParams | undefined) {
    this.registrations = [
      vscode.workspace.registerTextDocumentContentProvider(Schemes.proposal, this),
      vscode.workspace.registerTextDocumentContentProvider(Schemes.original, { provideTextDocumentContent: () => "" }),
    ];
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const ref = parseProposalUri(uri);
    const proposal = ref && this.lookup(ref.id);
    if (!ref || !proposal) return "(this proposal is no longer pending)\n";
    const file: FileChange | undefined = splitByFile(proposal.edit)[ref.file];
    if (!file) return "(this proposal has no such file)\n";
    const current = file.create ? { text: "" } : await currentText(vscode.Uri.parse(file.uri));
    try {
      return proposedText(current.text, file);
    } catch (err) {
      return `(the proposed edit no longer fits this file: ${err instanceof Error ? err.message : String(err)})\n`;
    }
  }

  refresh(uri: vscode.Uri): void {
    this.emitter.fire(uri);
  }

  dispose(): void {
    this.emitter.dispose();
    for (const r of this.registrations) r.dispose();
  }
}
