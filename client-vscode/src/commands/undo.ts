/**
 * Agent: Undo Run — `agent/undo {runId}` turns a run's applied edits into one new proposal
 * (reviewed like any other, per hunk too); files changed since are skipped and named. The
 * server keeps each run's trace on disk, so a run of an earlier session (not in this
 * window's list) can be undone by its id. A server without agent/undo answers
 * MethodNotFound (-32601): that is said plainly.
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { AgentUndo } from "../protocol";
import { isFinished } from "../runs/runStore";
import { pickRun, runIdFrom } from "./pick";

export const METHOD_NOT_FOUND = -32601;

export function undoRun(ctx: AgentCtx) {
  return async (arg?: unknown): Promise<void> => {
    let runId = runIdFrom(arg);
    if (!runId) {
      const done = ctx.runs.list().filter((r) => isFinished(r.status));
      runId = done.length
        ? (await pickRun(done, "Undo which run's edits?"))?.runId
        : (
            await vscode.window.showInputBox({
              title: "Agent: Undo Run",
              prompt: "No finished run in this window: the id of an earlier run (agentls run prints it; see .agentls/runs/)",
              placeHolder: "run-…",
              ignoreFocusOut: true,
            })
          )?.trim();
      if (!runId) return;
    }
    try {
      const result = await ctx.request(AgentUndo, { runId });
      const skipped = result.skipped.map((s) => `${s.path} (${s.reason})`).join("; ");
      if (result.proposalId) {
        void vscode.window.showInformationMessage(
          `agentls: the undo of run ${runId} is proposed (${result.files.length} file${result.files.length === 1 ? "" : "s"}); review its diff.` +
            (skipped ? ` Skipped: ${skipped}.` : ""),
        );
      } else {
        void vscode.window.showInformationMessage(`agentls: run ${runId} left nothing to undo.${skipped ? ` Skipped: ${skipped}.` : ""}`);
      }
    } catch (err) {
      if ((err as { code?: unknown })?.code === METHOD_NOT_FOUND) {
        void vscode.window.showWarningMessage(
          "agentls: this server version has no undo yet (it does not implement agent/undo). Update agentls to undo a run's edits.",
        );
        return;
      }
      throw err;
    }
  };
}
