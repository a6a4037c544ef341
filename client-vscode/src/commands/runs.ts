/**
 * Agent: Cancel Run (the active run; a pick when several) and Agent: Show Tasks (the
 * active or most recent run's tasks with their status; a pick of the run first when
 * several are going on).
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { Commands } from "../protocol";
import { shorten } from "../runs/format";
import type { TaskInfo } from "../runs/runStore";
import { pickRun, runIdFrom } from "./pick";

export function cancelRun(ctx: AgentCtx) {
  return async (arg?: unknown): Promise<void> => {
    const given = runIdFrom(arg);
    if (given) return ctx.cancelRun(given);
    const running = ctx.runs.running();
    if (running.length === 0) {
      void vscode.window.showInformationMessage("agentls: no agent run is going on.");
      return;
    }
    const run = await pickRun(running, "Which run to cancel?");
    if (run) await ctx.cancelRun(run.runId);
  };
}

const TASK_ICONS: Record<TaskInfo["status"], string> = {
  pending: "$(circle-large-outline)",
  running: "$(sync~spin)",
  done: "$(pass)",
  failed: "$(error)",
  skipped: "$(debug-step-over)",
};

export function showTasks(ctx: AgentCtx) {
  return async (arg?: unknown): Promise<void> => {
    const given = runIdFrom(arg);
    let run = given ? ctx.runs.get(given) : undefined;
    if (!run) {
      const running = ctx.runs.running();
      run = running.length > 1 ? await pickRun(running, "Show the tasks of which run?") : (running[0] ?? ctx.runs.list()[0]);
      if (!run) {
        const choice = await vscode.window.showInformationMessage("agentls: no agent run in this window yet.", "Run Goal…");
        if (choice) await vscode.commands.executeCommand(Commands.runGoal);
        return;
      }
    }
    const items: (vscode.QuickPickItem & { transcript?: boolean })[] = run.tasks.map((task) => ({
      label: `${TASK_ICONS[task.status] ?? ""} ${task.title}`,
      description: `${task.status}${task.steps.length ? ` · ${task.steps.length} step${task.steps.length === 1 ? "" : "s"}` : ""}`,
      detail: task.result ? shorten(task.result, 200) : undefined,
    }));
    if (items.length === 0) items.push({ label: "$(loading~spin) Planning…", description: "no tasks yet" });
    items.push({ label: "$(output) Open the transcript", description: "", transcript: true });
    const chosen = await vscode.window.showQuickPick(items, {
      title: `Tasks of "${shorten(run.goal || run.runId, 60)}" — ${run.status}, ${run.steps} step${run.steps === 1 ? "" : "s"}`,
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (chosen?.transcript) await vscode.commands.executeCommand(Commands.openTranscript, run.runId);
  };
}
