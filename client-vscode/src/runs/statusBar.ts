/**
 * The status-bar item: the active run (spinner, short goal, step count; click → Show
 * Tasks); after a run, how it ended with its verdict ("$(hubot) Agent · completed ·
 * unverified"; the tooltip has the reason and the usage; click → its transcript); before any
 * run idle "$(hubot) Agent" (click → Run Goal); "restricted" in an untrusted
 * workspace (click → trust editor) and a warning when the server could not start (click →
 * its output). Keeps the `agentls.runActive` context key.
 * Must not know: the client.
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { Commands, ContextKeys } from "../protocol";
import { lastRunText, lastRunTooltip, statusText } from "./format";

export function registerStatusBar(ctx: AgentCtx & { readonly serverFailure?: string }): vscode.Disposable {
  const item = vscode.window.createStatusBarItem("agentls.status", vscode.StatusBarAlignment.Left, 10);
  item.name = "agentls";
  let active: boolean | undefined;
  const update = () => {
    const run = ctx.runs.active();
    const last = run ? undefined : ctx.runs.list()[0];
    const model = ctx.config().model;
    if (run) {
      item.text = statusText(run, model);
      item.tooltip = `Agent run ${run.runId} (model ${model}): ${run.goal}\nClick to show its tasks.`;
      item.command = Commands.showTasks;
    } else if (!ctx.trusted) {
      item.text = "$(shield) Agent (restricted)";
      item.tooltip = "Untrusted workspace: agentls serves navigation only — no agent runs, no shell tools. Click to manage workspace trust.";
      item.command = "workbench.trust.manage";
    } else if (ctx.serverFailure) {
      item.text = "$(warning) Agent";
      item.tooltip = `${ctx.serverFailure}\nClick to show the output.`;
      item.command = Commands.showOutput;
    } else if (last) {
      item.text = lastRunText(last, model);
      item.tooltip = `Model: ${model}\n${lastRunTooltip(last)}`;
      item.command = { command: Commands.openTranscript, title: "Open Run Transcript", arguments: [last.runId] };
    } else {
      item.text = `$(hubot) ${model}`;
      item.tooltip = `agentls · model ${model} (agentls.model)\n${ctx.serverRunning ? "Click to run a goal." : "The server is starting…"}`;
      item.command = Commands.runGoal;
    }
    if (active !== !!run) {
      active = !!run;
      void vscode.commands.executeCommand("setContext", ContextKeys.runActive, active);
    }
  };
  update();
  item.show();
  const subs = [
    ctx.runs.onDidChange(update),
    ctx.onDidChangeServer(update),
    vscode.workspace.onDidGrantWorkspaceTrust(update),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration("agentls.model") && update()),
  ];
  return new vscode.Disposable(() => {
    for (const s of subs) s.dispose();
    item.dispose();
  });
}
