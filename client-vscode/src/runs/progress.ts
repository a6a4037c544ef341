/**
 * One progress notification per run (ProgressLocation.Notification, cancellable →
 * `agent/cancel`), whatever started it (Run Goal, a code action, another client): it
 * appears with the run's first sign of life in the RunStore, its message follows the
 * run's tasks and steps, and it closes when the run finishes; then the outcome is shown
 * (completed → verified or unverified (DESIGN §9) and the summary; failed/cancelled/out of
 * budget → a warning or error with the reason and any failed check) with a button to open
 * the transcript. The server's own work-done progress for
 * runs is dropped in client.ts, so the user sees exactly one.
 * Must not know: the client.
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { Commands } from "../protocol";
import { outcomeMessage, progressMessage, shorten } from "./format";
import { isFinished, type RunInfo } from "./runStore";
import { usageText, verdict } from "./verdict";

const OPEN_TRANSCRIPT = "Open Transcript";

export function registerRunProgress(ctx: AgentCtx): vscode.Disposable {
  const tracked = new Set<string>();
  const sub = ctx.runs.onDidChange((run) => {
    if (tracked.has(run.runId) || isFinished(run.status)) return;
    tracked.add(run.runId);
    show(ctx, run);
  });
  return new vscode.Disposable(() => sub.dispose());
}

function show(ctx: AgentCtx, first: RunInfo): void {
  const runId = first.runId;
  const title = `Agent: ${shorten(first.goal || "run", 60)}`;
  void vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, token) =>
      new Promise<void>((resolve) => {
        let last = "";
        const update = (run: RunInfo) => {
          const message = progressMessage(run);
          if (message !== last) {
            last = message;
            progress.report({ message });
          }
        };
        const cancel = token.onCancellationRequested(() => {
          ctx.log.info(`run ${runId}: cancelled from its progress notification`);
          void ctx.cancelRun(runId);
        });
        const sub = ctx.runs.onDidChange((run) => {
          if (run.runId !== runId) return;
          if (isFinished(run.status)) {
            sub.dispose();
            cancel.dispose();
            resolve();
            showOutcome(ctx, run);
          } else {
            update(run);
          }
        });
        update(first);
      }),
  );
}

function showOutcome(ctx: AgentCtx, run: RunInfo): void {
  const { level, text } = outcomeMessage(run);
  const v = verdict(run.status, run.verification);
  const usage = usageText(run.usage);
  ctx.log.info(
    `run ${run.runId} ${run.status}${v ? ` · ${v.text}` : ""}${run.summary ? `: ${run.summary}` : run.error ? `: ${run.error}` : ""}${usage ? ` [${usage}]` : ""}`,
  );
  const show =
    level === "error"
      ? vscode.window.showErrorMessage
      : level === "warning"
        ? vscode.window.showWarningMessage
        : vscode.window.showInformationMessage;
  void show(text, OPEN_TRANSCRIPT).then((choice) => {
    if (choice === OPEN_TRANSCRIPT) {
      vscode.commands.executeCommand(Commands.openTranscript, run.runId).then(undefined, (err: unknown) => {
        ctx.log.error(`could not open the transcript of run ${run.runId}: ${String(err)}`);
      });
    }
  });
}
