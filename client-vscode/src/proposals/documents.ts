/**
 * The documents of a proposal's diff editor: the proposed side
 * (`agentls-proposal:<path>?id=<proposalId>&file=<n>`, the original text with the file's
 * edits applied; editable: a writable in-memory file system) and, for a file that does not
 * exist yet, an empty read-only original side (`agentls-original:<path>?id=…`). The path
 * keeps the file's name, so the language and the tab title are the file's.
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

/**
 * The proposed side as a writable in-memory file system (DESIGN §9 edit before accept): the
 * diff's right side is a real document the user can type in; Accept reads what is left
 * there. A file's first read computes the proposed text (the original with the edits);
 * writes (Save, the ✗ of a hunk) keep the user's text until the proposal is decided.
 * The original side of a new file (`agentls-original:`) is empty and read-only.
 */
export class ProposalDocuments implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  private readonly files = new Map<string, { data: Uint8Array; mtime: number }>();
  private readonly registrations: vscode.Disposable[];

  constructor(private readonly lookup: (id: string) => ProposalParams | undefined) {
    this.registrations = [
      vscode.workspace.registerFileSystemProvider(Schemes.proposal, this, { isCaseSensitive: true }),
      vscode.workspace.registerTextDocumentContentProvider(Schemes.original, { provideTextDocumentContent: () => "" }),
    ];
  }

  /** The proposed text of a proposal's file as computed from the edit (not the user's). */
  async computed(uri: vscode.Uri): Promise<string> {
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

  /** What the proposed side holds now: the open document (maybe unsaved), else the stored text. */
  async shown(uri: vscode.Uri): Promise<string> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return open.getText();
    return new TextDecoder().decode(await this.readFile(uri));
  }

  /** Forget a decided proposal's files. */
  forget(id: string): void {
    for (const key of [...this.files.keys()]) {
      const ref = parseProposalUri(vscode.Uri.parse(key));
      if (ref?.id === id) this.files.delete(key);
    }
  }

  // --- FileSystemProvider ----------------------------------------------------------------------
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const data = await this.readFile(uri);
    const entry = this.files.get(uri.toString());
    return { type: vscode.FileType.File, ctime: entry?.mtime ?? 0, mtime: entry?.mtime ?? 0, size: data.byteLength };
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions("proposals have no folders");
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const key = uri.toString();
    let entry = this.files.get(key);
    if (!entry) {
      entry = { data: new TextEncoder().encode(await this.computed(uri)), mtime: Date.now() };
      this.files.set(key, entry);
    }
    return entry.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    if (!parseProposalUri(uri)) throw vscode.FileSystemError.FileNotFound(uri);
    this.files.set(uri.toString(), { data: content, mtime: Date.now() });
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions("a proposal is rejected, not deleted");
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions("a proposal cannot be renamed");
  }

  dispose(): void {
    this.emitter.dispose();
    for (const r of this.registrations) r.dispose();
  }
}
