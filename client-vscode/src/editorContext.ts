/**
 * The editor context that goes with every goal (DESIGN §5 `agent/run context: {uri,
 * range}`): the last file editor the user was in and its selection — followed even while
 * the focus is in the Agent view — unless the user removed it (the chip's ×); a new file or
 * selection brings it back. Proposal and transcript documents never count.
 * Must not know: runs (the views and Run Goal… read `current()`).
 */

import * as path from "path";
import * as vscode from "vscode";
import type { Range } from "./protocol";

export interface EditorContextInfo {
  uri: string;
  range?: Range;
  /** "greet.py", "greet.py:5-6" */
  label: string;
}

const SCHEMES = new Set(["file", "vscode-remote", "untitled"]);

export class EditorContext implements vscode.Disposable {
  private info: EditorContextInfo | undefined;
  private removed = false;
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly disposables: vscode.Disposable[];

  constructor() {
    this.disposables = [
      this.emitter,
      vscode.window.onDidChangeActiveTextEditor((e) => e && this.follow(e)),
      vscode.window.onDidChangeTextEditorSelection((e) => this.follow(e.textEditor)),
      // a file closed in every editor no longer goes with the goal
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        if (this.info && !editors.some((e) => e.document.uri.toString() === this.info?.uri)) {
          this.info = undefined;
          this.emitter.fire();
        }
      }),
    ];
    const active = vscode.window.activeTextEditor;
    if (active) this.follow(active);
  }

  /** What goes with the next goal, or undefined (none, or removed). */
  current(): EditorContextInfo | undefined {
    return this.removed ? undefined : this.info;
  }

  remove(): void {
    this.removed = true;
    this.emitter.fire();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private follow(editor: vscode.TextEditor): void {
    const doc = editor.document;
    if (!SCHEMES.has(doc.uri.scheme)) return;
    const sel = editor.selection;
    const name = path.posix.basename(doc.uri.path);
    const next: EditorContextInfo = sel.isEmpty
      ? { uri: doc.uri.toString(), label: name }
      : {
          uri: doc.uri.toString(),
          range: { start: { line: sel.start.line, character: sel.start.character }, end: { line: sel.end.line, character: sel.end.character } },
          label: sel.start.line === sel.end.line ? `${name}:${sel.start.line + 1}` : `${name}:${sel.start.line + 1}-${sel.end.line + 1}`,
        };
    if (this.info && this.info.uri === next.uri && this.info.label === next.label) return;
    this.info = next;
    this.removed = false;
    this.emitter.fire();
  }
}
