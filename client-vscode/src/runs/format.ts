/**
 * How a run reads in one line: the progress notification's message, the status bar text
 * and the outcome message when it ends. Pure functions of a RunInfo.
 * Must not know: VS Code.
 */

import type { RunInfo } from "./runStore";

export function shorten(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

/** "Task 2/3: Write the tests · step 4: read_file" (or "Planning…"). */
export function progressMessage(run: RunInfo): string {
  const parts: string[] = [];
  const running = run.tasks.find((t) => t.status === "running");
  if (running) parts.push(`Task ${running.index + 1}/${run.tasks.length}: ${shorten(running.title, 60)}`);
  else if (run.phase === "planning" || run.tasks.length === 0) parts.push("Planning…");
  const steps = [...run.tasks.flatMap((t) => t.steps), ...run.looseSteps];
  const last = steps.reduce<(typeof steps)[number] | undefined>((a, s) => (!a || s.startedAt >= a.startedAt ? s : a), undefined);
  if (run.steps > 0) parts.push(last ? `step ${run.steps}: ${last.name}` : `step ${run.steps}`);
  return parts.join(" · ");
}

export type OutcomeLevel = "info" | "warning" | "error";

/** The message shown when a run ends. */
export function outcomeMessage(run: RunInfo): { level: OutcomeLevel; text: string } {
  const goal = shorten(run.goal || run.runId, 60);
  switch (run.status) {
    case "completed":
      return { level: "info", text: `Agent run completed: ${run.summary ? shorten(run.summary, 300) : goal}` };
    case "cancelled":
      return { level: "warning", text: `Agent run cancelled: ${goal}` };
    case "budget_exhausted":
      return {
        level: "warning",
        text: `Agent run stopped at its step budget (${run.steps} steps): ${goal}${run.error ? ` — ${shorten(run.error, 200)}` : ""}. Raise agentls.maxSteps to let runs go further.`,
      };
    case "failed": {
      const decided = Object.values(run.proposalStatus ?? {});
      const rejected = decided.filter((s) => s === "rejected").length;
      if (rejected > 0 && !decided.includes("applied")) {
        // the user said no to the edits: that is their decision, not an error
        return {
          level: "warning",
          text: `Agent run failed: ${run.error ? shorten(run.error, 300) : goal} — you rejected ${rejected === 1 ? "its edit" : `its ${rejected} edits`}, so nothing was changed.`,
        };
      }
      return { level: "error", text: `Agent run failed: ${run.error ? shorten(run.error, 300) : goal}` };
    }
    default:
      return { level: "info", text: `Agent run ${run.status}: ${goal}` };
  }
}

/** The status bar's text for a run that is going on. */
export function statusText(run: RunInfo): string {
  return `$(sync~spin) ${shorten(run.goal || "Agent run", 30)} · ${run.steps} step${run.steps === 1 ? "" : "s"}`;
}
