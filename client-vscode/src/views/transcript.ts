/**
 * Run transcripts as read-only Markdown documents (`agentls-transcript:/<runId>.md`, text
 * from ctx.runs.transcriptMarkdown) that update while the run streams (onDidChange,
 * throttled per document), and the command agentls.openTranscript(runId?) — a quick pick of
 * the runs when called without one.
 * Must not know: how the run model is fed (it only reads ctx.runs).
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { Commands, Schemes } from "../protocol";
import { runDescription, runLabel } from "./format";
import { KeyedThrottle } from "./throttle";

export function transcriptUri(runId: string): vscode.Uri {
  return vscode.Uri.from({ scheme: Schemes.transcript, path: `/${runId}.md` });
}

/** The run id of a transcript URI (`/<runId>.md`). */
export function runIdOf(uri: vscode.Uri): string {
  return uri.path.replace(/^\//, "").replace(/\.md$/, "");
}

export class TranscriptProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  private readonly throttle = new KeyedThrottle((runId) => this.emitter.fire(transcriptUri(runId)), 250);
  private readonly subscription: { dispose(): void };

  constructor(private readonly ctx: AgentCtx) {
    this.subscription = ctx.runs.onDidChange((run) => {
      // the throttle always ends with a trailing call: the last state of a run is never lost
      if (this.isOpen(run.runId)) this.throttle.schedule(run.runId);
    });
  }

  private isOpen(runId: string): boolean {
    const uri = transcriptUri(runId).toString();
    return vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.ctx.runs.transcriptMarkdown(runIdOf(uri));
  }

  dispose(): void {
    this.throttle.dispose();
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/** `runId` string, a Runs tree element `{runId}`, or nothing (quick pick). */
function runIdArgument(arg: unknown): string | undefined {
  if (typeof arg === "string" && arg) return arg;
  if (typeof arg === "object" && arg !== null && typeof (arg as { runId?: unknown }).runId === "string") {
    return (arg as { runId: string }).runId;
  }
  return undefined;
}

export async function openTranscript(ctx: AgentCtx, arg?: unknown): Promise<void> {
  let runId = runIdArgument(arg);
  if (!runId) {
    const runs = ctx.runs.list();
    if (!runs.length) {
      void vscode.window.showInformationMessage("No agent runs yet in this window.");
      return;
    }
    const now = Date.now();
    const pick = await vscode.window.showQuickPick(
      runs.map((r) => ({ label: runLabel(r, 80), description: runDescription(r, now), detail: r.runId, runId: r.runId })),
      { title: "Open Run Transcript", placeHolder: "Which run?", matchOnDescription: true, matchOnDetail: true },
    );
    runId = pick?.runId;
  }
  if (!runId) return;
  const uri = transcriptUri(runId);
  const doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== "markdown") await vscode.languages.setTextDocumentLanguage(doc, "markdown");
  try {
    // rendered, not the Markdown source: headings, the summary, tool calls as code
    await vscode.commands.executeCommand("markdown.showPreview", uri);
  } catch {
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: false });
  }
}

export function registerTranscripts(ctx: AgentCtx): vscode.Disposable {
  const provider = new TranscriptProvider(ctx);
  return vscode.Disposable.from(
    provider,
    vscode.workspace.registerTextDocumentContentProvider(Schemes.transcript, provider),
    vscode.commands.registerCommand(Commands.openTranscript, (arg?: unknown) => openTranscript(ctx, arg)),
  );
}
