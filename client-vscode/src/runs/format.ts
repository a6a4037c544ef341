/**
 * How a run reads in one line: the progress notification's message, the status bar text
 * and the outcome message when it ends (with DESIGN §9's verdict: verified, unverified and
 * why, or the check that failed). Pure functions of a RunInfo.
 * Must not know: VS Code.
 */

import type { RunInfo } from "./runStore";
import { usageText, verdict } from "./verdict";

export function shorten(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

/** "Task 2/3: Write the tests · step 4: read_file" (or "Planning…"). */
export function progressMessage(run: RunInfo): string {
  const parts: string[] = [];
  const running = run.tasks.find((t) => t.status === "running");
  // the goal is the notification's title: a task that only repeats it is not named again
  const same = running && running.title.trim() === run.goal.trim();
  if (running) parts.push(`Task ${running.index + 1}/${run.tasks.length}${same ? "" : `: ${shorten(running.title, 60)}`}`);
  else if (run.phase === "planning" || run.tasks.length === 0) parts.push("Planning…");
  const steps = [...run.tasks.flatMap((t) => t.steps), ...run.looseSteps];
  const last = steps.reduce<(typeof steps)[number] | undefined>((a, s) => (!a || s.startedAt >= a.startedAt ? s : a), undefined);
  if (run.steps > 0) parts.push(last ? `step ${run.steps}: ${last.name}` : `step ${run.steps}`);
  return parts.join(" · ");
}

export type OutcomeLevel = "info" | "warning" | "error";

/**
 * The summary without its "Not verified: <reason>." line when the verdict already says it
 * (the server's summary states its facts, the verification among them).
 */
export function summaryBesideVerdict(run: Pick<RunInfo, "summary" | "verification">): string | undefined {
  const summary = run.summary?.trim();
  const reason = run.verification?.verified === null ? run.verification.unverified : undefined;
  if (!summary || !reason) return summary || undefined;
  const said = `Not verified: ${reason}.`;
  return summary.split("\n").filter((line) => line.trim() !== said).join("\n").trim() || undefined;
}

/**
 * The message shown when a run ends: "Agent run completed · unverified: <reason> — <summary>",
 * "Agent run completed · verified: tests passed — <summary>"; a server that gives no verdict:
 * "Agent run completed: <summary>".
 */
export function outcomeMessage(run: RunInfo): { level: OutcomeLevel; text: string } {
  const goal = shorten(run.goal || run.runId, 60);
  const v = verdict(run.status, run.verification);
  const tag = v ? ` · ${shorten(v.text, 200)}` : "";
  switch (run.status) {
    case "completed": {
      const body = summaryBesideVerdict(run);
      const text = `Agent run completed${tag}${v ? " — " : ": "}${body ? shorten(body, 300) : goal}`;
      // a completed run whose check failed breaks DESIGN §9: say so as loudly as a failure
      return { level: v?.level === "failed" ? "warning" : "info", text };
    }
    case "cancelled":
      return { level: "warning", text: `Agent run cancelled: ${goal}` };
    case "budget_exhausted":
      return {
        level: "warning",
        text: `Agent run stopped at its step budget (${run.steps} steps)${tag}: ${goal}${run.error ? ` — ${shorten(run.error, 200)}` : ""}. Raise agentls.maxSteps to let runs go further.`,
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
      return { level: "error", text: `Agent run failed${tag}${v ? " — " : ": "}${run.error ? shorten(run.error, 300) : goal}` };
    }
    default:
      return { level: "info", text: `Agent run ${run.status}: ${goal}` };
  }
}

/** The status bar's text for a run that is going on. */
export function statusText(run: RunInfo, model?: string): string {
  const who = model ? shorten(model, 30) : shorten(run.goal || "Agent run", 30);
  return `$(sync~spin) ${who} · ${run.steps} step${run.steps === 1 ? "" : "s"}`;
}

const STATUS_WORDS: Record<string, string> = { budget_exhausted: "out of budget" };
const VERDICT_WORDS: Record<string, string> = { verified: "verified", unverified: "unverified", failed: "check failed" };

/**
 * The status bar after a run: "$(hubot) Agent · completed · unverified" (… · verified,
 * failed · check failed; a server without a verdict: "$(hubot) Agent · completed").
 */
export function lastRunText(run: RunInfo, model?: string): string {
  const v = verdict(run.status, run.verification);
  const status = STATUS_WORDS[run.status] ?? run.status;
  return `$(hubot) ${model ? shorten(model, 30) : "Agent"} · ${status}${v ? ` · ${VERDICT_WORDS[v.level]}` : ""}`;
}

/** Its tooltip: the goal, the outcome with the verdict in full, the usage. */
export function lastRunTooltip(run: RunInfo): string {
  const v = verdict(run.status, run.verification);
  const usage = usageText(run.usage);
  const lines = [`Last agent run: ${shorten(run.goal || run.runId, 120)}`, `${STATUS_WORDS[run.status] ?? run.status}${v ? ` · ${v.text}` : ""}`];
  if (usage) lines.push(usage);
  lines.push("Click to open its transcript.");
  return lines.join("\n");
}
