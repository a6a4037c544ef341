/**
 * How runs, tasks, steps and proposals read in the views: durations, status words, one-line
 * descriptions and tooltips, and which codicon stands for which status. The Runs tree, the
 * Agent webview and the transcript quick pick all word things the same way through here.
 * Must not know: VS Code (no `vscode` import: unit-tested as plain functions).
 */

import type { ProposalInfo, RunStatus, TaskStatus } from "../protocol";
import { describeArguments, isFinished, type RunInfo, type StepInfo, type StepStatus } from "../runs/runStore";
import { checkLine, usageText, verdict, type VerdictLevel } from "../runs/verdict";

/** 0 ms, 850 ms, 1.2 s, 12 s, 3 min 05 s, 1 h 02 min */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return "";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.floor(s)} s`;
  const totalS = Math.floor(s);
  const min = Math.floor(totalS / 60);
  if (min < 60) return `${min} min ${String(totalS % 60).padStart(2, "0")} s`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, "0")} min`;
}

const RUN_WORDS: Record<RunStatus, string> = {
  running: "running",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
  budget_exhausted: "out of budget",
};

export function runStatusText(status: RunStatus): string {
  return RUN_WORDS[status] ?? String(status);
}

/** How long a run took (or has been going, measured against `now`). */
export function runDurationMs(run: Pick<RunInfo, "startedAt" | "endedAt">, now: number): number {
  return Math.max(0, (run.endedAt ?? now) - run.startedAt);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The most of a verdict a one-line description shows (the tooltip has it whole). */
export const VERDICT_LIMIT = 100;

/**
 * "running · 3 steps · 12 s"; a finished run with DESIGN §9's verdict after its status:
 * "completed · unverified: the tests were not run (…) · 3 steps · 12 s".
 */
export function runDescription(run: RunInfo, now: number, withVerdict = true): string {
  const phase = run.status === "running" && run.phase === "planning" ? "planning" : runStatusText(run.status);
  const v = withVerdict ? verdict(run.status, run.verification) : undefined;
  return [phase, v ? clip(v.text, VERDICT_LIMIT) : "", plural(run.steps, "step"), formatDuration(runDurationMs(run, now))]
    .filter(Boolean)
    .join(" · ");
}

/** The verdict's level of a run, if the server gave one (icons and colours key on it). */
export function runVerdictLevel(run: Pick<RunInfo, "status" | "verification">): VerdictLevel | undefined {
  return verdict(run.status, run.verification)?.level;
}

/**
 * The run's verification and usage in lines, for tooltips: the verdict in full, one line per
 * check, "Usage: …". Empty for a run the server gave neither.
 */
export function runDetails(run: RunInfo): string[] {
  const lines: string[] = [];
  const v = verdict(run.status, run.verification);
  if (v) lines.push(v.text.charAt(0).toUpperCase() + v.text.slice(1));
  for (const check of run.verification?.checks ?? []) lines.push(checkLine(check));
  const usage = usageText(run.usage);
  if (usage) lines.push(`Usage: ${usage}`);
  return lines;
}

/** The run's label: its goal on one line (the tree cuts it; the tooltip has it whole). */
export function runLabel(run: Pick<RunInfo, "goal" | "runId">, limit = 120): string {
  const goal = run.goal.replace(/\s+/g, " ").trim() || `Run ${run.runId}`;
  return goal.length <= limit ? goal : `${goal.slice(0, limit - 1)}…`;
}

export function runTooltip(run: RunInfo, now: number): string {
  // the verdict comes whole with the details below
  const lines = [run.goal || `Run ${run.runId}`, "", `Run ${run.runId} — ${runDescription(run, now, false)}`];
  if (run.tasks.length) lines.push(plural(run.tasks.length, "task"));
  const details = runDetails(run);
  if (details.length) lines.push("", ...details);
  if (run.summary) lines.push("", run.summary);
  if (run.error) lines.push("", `Error: ${run.error}`);
  return lines.join("\n");
}

/** "read_file path=\"a.py\"" — the tool and its arguments, short. */
export function stepLabel(step: Pick<StepInfo, "name" | "arguments">, limit = 60): string {
  const args = describeArguments(step.arguments, limit);
  return args ? `${step.name} ${args}` : step.name;
}

const STEP_WORDS: Record<StepStatus, string> = { running: "running", ok: "ok", error: "error", rejected: "rejected" };

/** "ok · 12 ms", "permission error · 3 ms", "running" */
export function stepDescription(step: StepInfo): string {
  const word = step.status === "error" && step.error?.type ? `${step.error.type} error` : STEP_WORDS[step.status];
  const took = step.status === "running" ? "" : formatDuration(step.durationMs);
  return took ? `${word} · ${took}` : word;
}

/** Arguments in full (pretty JSON) and the error or an excerpt of the output. */
export function stepTooltip(step: StepInfo, excerpt = 600): string {
  const lines = [`${step.name} — ${stepDescription(step)}`, "", "Arguments:", clip(pretty(step.arguments), excerpt)];
  if (step.error) lines.push("", `Error (${step.error.type}): ${clip(step.error.message, excerpt)}`);
  else if (step.output !== undefined && step.output !== null) lines.push("", "Output:", clip(pretty(step.output), excerpt));
  return lines.join("\n");
}

export function pretty(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? "";
  } catch {
    return "(not serialisable)";
  }
}

export function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

// --- codicons (ThemeIcon ids) -------------------------------------------------------------------
/** The run's codicon; a completed run that was verified shows the verified badge, one whose check failed a warning. */
export function runIcon(status: RunStatus, level?: VerdictLevel): string {
  switch (status) {
    case "running":
      return "sync~spin";
    case "completed":
      return level === "verified" ? "verified" : level === "failed" ? "warning" : "pass";
    case "failed":
      return "error";
    case "cancelled":
      return "circle-slash";
    case "budget_exhausted":
      return "warning";
  }
  return "circle-outline";
}

export function taskIcon(status: TaskStatus): string {
  switch (status) {
    case "pending":
      return "circle-outline";
    case "running":
      return "sync~spin";
    case "done":
      return "pass";
    case "failed":
      return "error";
    case "skipped":
      return "debug-step-over";
  }
  return "circle-outline";
}

export function stepIcon(status: StepStatus): string {
  return status === "running" ? "loading~spin" : status === "ok" ? "check" : "close";
}

/** The proposal's file, relative to the workspace when the server said so. */
export function proposalPath(p: Pick<ProposalInfo, "path" | "uri">, relative?: (uri: string) => string): string {
  if (p.path) return p.path;
  if (relative) return relative(p.uri);
  const tail = p.uri.replace(/^[a-z][a-z0-9+.-]*:\/*/i, "");
  return decodeURIComponent(tail.split("/").slice(-2).join("/"));
}

/** The run model is "finished" for every status but running. */
export { isFinished };
