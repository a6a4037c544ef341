/**
 * A proposal's WorkspaceEdit taken apart for review (DESIGN §4): `splitByFile` gives one
 * entry per document (a diff editor each), `selectHunks` builds the edit of the hunks the
 * user picked (per-hunk review), `findStale` is the client's staleness check before
 * anything is applied (the open document's version, else the content the diff was made
 * from). The server judges staleness again when it is answered.
 * Must not know: VS Code (URIs are strings; documents are {version, text}).
 */

import type { DeleteFile, Hunk, ProposalParams, TextDocumentEdit, TextEdit, WorkspaceEditJson } from "../protocol";
import { applyTextEdits } from "./textEdits";

export interface FileChange {
  uri: string;
  /** the file does not exist yet (a create-file operation precedes the edits) */
  create: boolean;
  /** the document version the edits were made against (null: not open in the editor) */
  version: number | null;
  edits: TextEdit[];
}

/** One entry per document, in the order they first appear. */
export function splitByFile(edit: WorkspaceEditJson): FileChange[] {
  const files = new Map<string, FileChange>();
  const entry = (uri: string): FileChange => {
    let file = files.get(uri);
    if (!file) {
      file = { uri, create: false, version: null, edits: [] };
      files.set(uri, file);
    }
    return file;
  };
  for (const change of edit.documentChanges ?? []) {
    if ("kind" in change) {
      if (change.kind === "create") entry(change.uri).create = true;
      continue; // a delete follows the edit emptying the file (the undo of a run)
    }
    const file = entry(change.textDocument.uri);
    if (typeof change.textDocument.version === "number") file.version = change.textDocument.version;
    file.edits.push(...change.edits);
  }
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) entry(uri).edits.push(...edits);
  return [...files.values()];
}

/** The proposed text of one file: the original with the file's edits applied. */
export function proposedText(original: string, file: FileChange): string {
  return applyTextEdits(original, file.edits);
}

/** Whether per-hunk review is possible (a server from before DESIGN §4's hunks sent none). */
export function hasHunks(proposal: { hunks?: readonly Hunk[] | null }): boolean {
  return Array.isArray(proposal.hunks) && proposal.hunks.length > 0;
}

/**
 * The WorkspaceEdit applying only the chosen hunks: their edits, grouped by document,
 * against the versions of the proposal's own edit (and the create of a new file, or the
 * delete of a removed one, whose hunk is chosen). Unknown indexes or an empty choice are errors.
 */
export function selectHunks(proposal: Pick<ProposalParams, "edit" | "hunks">, indexes: readonly number[]): WorkspaceEditJson {
  const hunks = proposal.hunks;
  if (indexes.length === 0) throw new Error("no hunk was chosen");
  const byIndex = new Map<number, Hunk>(hunks.map((h) => [h.index, h]));
  const chosen: Hunk[] = [];
  for (const index of [...new Set(indexes)].sort((a, b) => a - b)) {
    const hunk = byIndex.get(index);
    if (!hunk) throw new Error(`the proposal has no hunk ${index}`);
    chosen.push(hunk);
  }
  const files = new Map(splitByFile(proposal.edit).map((f) => [f.uri, f]));
  const deletes = new Map<string, DeleteFile>();
  for (const change of proposal.edit.documentChanges ?? []) if ("kind" in change && change.kind === "delete") deletes.set(change.uri, change);
  const documentChanges: NonNullable<WorkspaceEditJson["documentChanges"]> = [];
  const grouped = new Map<string, TextDocumentEdit>();
  for (const hunk of chosen) {
    let doc = grouped.get(hunk.uri);
    if (!doc) {
      const file = files.get(hunk.uri);
      if (file?.create) documentChanges.push({ kind: "create", uri: hunk.uri, options: { overwrite: false, ignoreIfExists: false } });
      doc = { textDocument: { uri: hunk.uri, version: file?.version ?? null }, edits: [] };
      grouped.set(hunk.uri, doc);
      documentChanges.push(doc);
      const remove = deletes.get(hunk.uri);
      if (remove) documentChanges.push(remove);
    }
    doc.edits.push(...hunk.edits);
  }
  return { documentChanges };
}

/** A short label for a hunk in the quick pick: its header and what it adds and removes. */
export function describeHunk(hunk: Hunk, path: string): { label: string; detail: string } {
  const lines = hunk.diff.split("\n");
  const header = lines.find((l) => l.startsWith("@@")) ?? `hunk ${hunk.index + 1}`;
  const added = lines.filter((l) => l.startsWith("+") && !l.startsWith("+++")).length;
  const removed = lines.filter((l) => l.startsWith("-") && !l.startsWith("---")).length;
  const first = lines.find((l) => (l.startsWith("+") && !l.startsWith("+++")) || (l.startsWith("-") && !l.startsWith("---")));
  return {
    label: `${path} ${header.replace(/@@ (.*) @@.*/, "$1")} (+${added} −${removed})`,
    detail: first ? first.slice(0, 120) : "",
  };
}

// --- staleness ------------------------------------------------------------------------------

export interface DiffFile {
  /** the path after "a/" (or after "b/" for a new file) */
  path: string;
  hunks: { oldStart: number; oldLines: string[] }[];
}

/** The files and hunks of a unified diff: for each hunk, the old lines (context and removed). */
export function parseUnifiedDiff(diff: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | undefined;
  let hunk: DiffFile["hunks"][number] | undefined;
  for (const line of diff.split("\n")) {
    if (line.startsWith("--- ")) {
      const name = line.slice(4).trim();
      file = { path: name === "/dev/null" ? "" : name.replace(/^a\//, ""), hunks: [] };
      files.push(file);
      hunk = undefined;
    } else if (line.startsWith("+++ ") && file && !hunk) {
      if (!file.path) file.path = line.slice(4).trim().replace(/^b\//, "");
    } else if (line.startsWith("@@") && file) {
      const m = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(line);
      hunk = m ? { oldStart: Number(m[1]), oldLines: [] } : undefined;
      if (hunk) file.hunks.push(hunk);
    } else if (hunk && (line.startsWith(" ") || line.startsWith("-"))) {
      hunk.oldLines.push(line.slice(1));
    }
  }
  return files;
}

export interface CurrentDocument {
  /** the editor's version when the document is open, else null */
  version: number | null;
  text: string;
  exists: boolean;
}

/**
 * Why applying `file` now would not be what the user reviewed, or undefined when it is
 * safe: a file to create that exists now, an open document whose version moved on, or a
 * text that no longer holds the lines the diff was made from.
 */
export function findStale(file: FileChange, current: CurrentDocument, diff: DiffFile | undefined, name: string): string | undefined {
  if (file.create) return current.exists && current.text !== "" ? `${name} exists now` : undefined;
  if (!current.exists) return `${name} no longer exists`;
  if (file.version !== null && current.version !== null) {
    if (current.version === file.version) return undefined; // the very text the edit was made for
    return `${name} was edited since the agent proposed this (version ${current.version}, the proposal is for ${file.version})`;
  }
  if (diff) {
    const lines = current.text.split("\n").map((l) => l.replace(/\r$/, ""));
    for (const hunk of diff.hunks) {
      const at = Math.max(hunk.oldStart - 1, 0);
      const same = hunk.oldLines.every((old, i) => lines[at + i] === old.replace(/\r$/, ""));
      if (!same) return `${name} no longer holds the lines the proposal was made from (near line ${hunk.oldStart})`;
    }
  }
  return undefined;
}

/** The diff entry of a file of the edit (matched by the path the URI ends with). */
export function diffFor(files: DiffFile[], uri: string): DiffFile | undefined {
  const decoded = decodeURIComponent(uri);
  return files.find((f) => f.path && (decoded.endsWith(`/${f.path}`) || decoded === f.path));
}
