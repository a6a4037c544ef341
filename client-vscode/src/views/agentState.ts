/**
 * What the Agent view shows, built from the run model and the pending proposals: the
 * runs as plain data for the webview, which run's transcript is on screen, and the slice of
 * that transcript the webview has not seen yet (so a streaming run sends only new entries).
 * Must not know: VS Code (unit-tested with a RunStore fed plain events).
 */

import type { ProposalInfo } from "../protocol";
import { isFinished, type RunInfo, type RunStore, type StepInfo, type TranscriptEntry } from "../runs/runStore";
import type { ProposalView, RunView, StepView } from "./agentMessages";
import { usageText, verdict } from "../runs/verdict";
import { summaryBesideVerdict } from "../runs/format";
import { proposalPath, runDescription, runDetails, stepDescription, stepLabel, stepTooltip } from "./format";

/** The most runs the view lists (the Runs tree has them all). */
export const VIEW_RUN_LIMIT = 20;

export function stepView(step: StepInfo): StepView {
  return {
    id: step.id,
    label: stepLabel(step),
    status: step.status,
    description: stepDescription(step),
    tooltip: stepTooltip(step, 400),
  };
}

/** "thinking… 12 s · 35 tok/s" (≈ 4 characters a token) and the text so far, while a turn streams. */
export function streamView(run: RunInfo, now: number): RunView["stream"] {
  const s = run.stream;
  if (!s || isFinished(run.status)) return null;
  const secs = Math.max((now - s.startedAt) / 1000, 0.001);
  const rate = s.chars / 4 / secs;
  const what = s.phase === "planning" ? "planning…" : "thinking…";
  return { label: `${what} ${Math.round(secs)} s${s.chars ? ` · ${rate.toFixed(rate < 10 ? 1 : 0)} tok/s` : ""}`, text: s.text.slice(-600) };
}

/** The end of a run in facts the server reports: proposals decided, checks run. */
export function runFacts(run: RunInfo): string[] {
  const facts: string[] = [];
  const decided = Object.values(run.proposalStatus ?? {});
  if (decided.length) {
    const count = (s: string) => decided.filter((d) => d === s).length;
    const parts = [["applied", count("applied")], ["rejected", count("rejected")], ["stale", count("stale")], ["pending", count("pending")]]
      .filter(([, n]) => n)
      .map(([w, n]) => `${n} ${w}`);
    facts.push(`Edits: ${parts.join(", ")}`);
  }
  for (const check of run.verification?.checks ?? []) {
    facts.push(`${check.passed ? "✓" : "✗"} ${check.kind}${check.command ? ` (${check.command})` : ""}: ${check.detail.split("\n")[0]}`);
  }
  return facts;
}

export function runView(run: RunInfo, now: number): RunView {
  return {
    runId: run.runId,
    goal: run.goal,
    status: run.status,
    description: runDescription(run, now),
    tasks: run.tasks.map((t) => ({ index: t.index, title: t.title, status: t.status, steps: t.steps.map(stepView) })),
    looseSteps: run.looseSteps.map(stepView),
    // the verdict is its own line: the summary's "Not verified: <reason>." is not said twice
    summary: summaryBesideVerdict(run) ?? null,
    // "cancelled" as an error says nothing the status does not
    error: run.error && run.error !== run.status ? run.error : null,
    verdict: verdict(run.status, run.verification) ?? null,
    details: runDetails(run),
    usage: usageText(run.usage),
    contextFill: run.usage && run.usage.contextWindow ? { used: run.usage.contextUsed ?? 0, window: run.usage.contextWindow } : null,
    rules: run.rules ?? null,
    stream: streamView(run, now),
    facts: isFinished(run.status) ? runFacts(run) : [],
  };
}

export function proposalView(p: ProposalInfo, relative?: (uri: string) => string): ProposalView {
  return { id: p.id, runId: p.runId, title: p.title, path: proposalPath(p, relative) };
}

/**
 * Which run's transcript the view follows: the one the user picked while it still exists,
 * else the active run, else the newest.
 */
export class RunSelection {
  private picked: string | undefined;
  private seen = new Set<string>();

  constructor(private readonly store: RunStore) {}

  pick(runId: string): void {
    this.picked = runId;
  }

  /** Call on every change: a run that starts (one not seen before) takes the view over. */
  observe(run: RunInfo): void {
    if (this.seen.has(run.runId)) return;
    this.seen.add(run.runId);
    if (!isFinished(run.status)) this.picked = run.runId;
  }

  current(): RunInfo | undefined {
    const picked = this.picked ? this.store.get(this.picked) : undefined;
    return picked ?? this.store.active() ?? this.store.list()[0];
  }
}

/** Tracks the transcript entries already posted, so each post carries only what is new. */
export class TranscriptCursor {
  private runId: string | null = null;
  private sent = 0;

  /** Forget what was sent (the webview was re-created). */
  restart(): void {
    this.runId = null;
    this.sent = 0;
  }

  /** The entries to post for `run`, or undefined when nothing changed. */
  next(run: RunInfo | undefined): { runId: string | null; from: number; reset: boolean; entries: TranscriptEntry[] } | undefined {
    const runId = run?.runId ?? null;
    const entries = run?.transcript ?? [];
    if (runId !== this.runId || entries.length < this.sent) {
      this.runId = runId;
      this.sent = entries.length;
      return { runId, from: 0, reset: true, entries: [...entries] };
    }
    if (entries.length === this.sent) return undefined;
    const from = this.sent;
    this.sent = entries.length;
    return { runId, from, reset: false, entries: entries.slice(from) };
  }
}
