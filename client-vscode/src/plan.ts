/**
 * Plan review (DESIGN §9, approval `plan`): the server's `agent/plan {runId, tasks}` request
 * opens a panel with the tasks as an editable list (change, add, remove) and Approve /
 * Reject (with an optional comment). Approve answers `{tasks}` (as edited); Reject, or
 * closing the panel, answers `{decision: "rejected", comment?}`.
 * Must not know: runs (the answer goes back to the server, which goes on).
 */

import * as vscode from "vscode";
import type { AgentCtx } from "./ctx";
import type { PlanParams, PlanResult } from "./protocol";
import { showPage } from "./views/webviewPage";

type FromPlan = { type: "approve"; tasks: unknown } | { type: "reject"; comment?: unknown } | { type: "ready" };

export function cleanTasks(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((t): t is string => typeof t === "string").map((t) => t.trim()).filter(Boolean).slice(0, 50);
}

export function reviewPlan(ctx: Pick<AgentCtx, "extension" | "log" | "runs">, params: PlanParams): Promise<PlanResult> {
  const tasks = cleanTasks(params?.tasks);
  const goal = ctx.runs.get(params?.runId)?.goal ?? "";
  ctx.log.info(`run ${params?.runId}: the plan to review: ${JSON.stringify(tasks)}`);
  const panel = vscode.window.createWebviewPanel("agentls.plan", "Agent: Review Plan", vscode.ViewColumn.Active, {
    enableScripts: true,
    retainContextWhenHidden: true,
  });
  showPage(panel.webview, ctx.extension.extensionUri, { title: "Review Plan", script: "plan.js", style: "agent.css" });
  return new Promise<PlanResult>((resolve) => {
    let done = false;
    const finish = (result: PlanResult) => {
      if (done) return;
      done = true;
      ctx.log.info(`run ${params?.runId}: plan ${"tasks" in result ? `approved: ${JSON.stringify(result.tasks)}` : "rejected"}`);
      resolve(result);
      panel.dispose();
    };
    panel.webview.onDidReceiveMessage((m: FromPlan) => {
      if (m?.type === "ready") void panel.webview.postMessage({ type: "plan", runId: params?.runId, goal, tasks });
      else if (m?.type === "approve") {
        const edited = cleanTasks(m.tasks);
        finish(edited.length ? { tasks: edited } : { decision: "rejected", comment: "the plan was emptied" });
      } else if (m?.type === "reject") {
        const comment = typeof m.comment === "string" && m.comment.trim() ? m.comment.trim() : undefined;
        finish(comment ? { decision: "rejected", comment } : { decision: "rejected" });
      }
    });
    panel.onDidDispose(() => finish({ decision: "rejected", comment: "the plan review was closed" }));
  });
}
