/**
 * The runs the editor knows of, rebuilt from `agent/event` notifications (and `agent/status`
 * answers): run → tasks → steps (tool calls with status and duration), proposals, the
 * transcript as it streams. The Agent view, the Runs tree, the status bar, the progress
 * notification and the transcript document all read this one model and listen to its
 * changes. A run the extension did not start (a code action's run, another client's) appears
 * with its first event.
 * Must not know: VS Code (no `vscode` import: the unit tests drive it with plain events).
 */

import type { AgentEvent, AgentStatusResult, ProposalStatus, RunStatus, TaskStatus, ToolError, Verification } from "../protocol";
import { runMarkdown } from "./markdown";
import { readUsage, readVerification, verdict, type RunUsage } from "./verdict";

/** "rejected": the step ran but the user said no to what it proposed (or it went stale) */
export type StepStatus = "running" | "ok" | "error" | "rejected";

export interface StepInfo {
  id: string;
  name: string;
  arguments: unknown;
  task: number | null;
  status: StepStatus;
  startedAt: number;
  durationMs?: number;
  error?: ToolError | null;
  output?: unknown;
}

export interface TaskInfo {
  index: number;
  title: string;
  status: TaskStatus;
  result?: string | null;
  steps: StepInfo[];
}

export interface TranscriptEntry {
  at: number;
  kind: AgentEvent["kind"] | "started";
  text: string;
}

export interface RunInfo {
  runId: string;
  /** DESIGN §9: the session the run belongs to (a server before §9 sends none) */
  sessionId?: string;
  /** the rules files the run read (event kind `rules`) */
  rules?: string[];
  /** the model turn being written (event kind `stream`): its text so far and when it began */
  stream?: { text: string; chars: number; startedAt: number; phase?: "planning" | "acting" };
  goal: string;
  status: RunStatus;
  phase?: "planning" | "acting";
  steps: number;
  tasks: TaskInfo[];
  /** tool calls that name no task (or a task not announced yet) */
  looseSteps: StepInfo[];
  proposals: string[];
  /** the last known status of each of the run's proposals (from its proposal events) */
  proposalStatus?: Record<string, ProposalStatus>;
  summary?: string | null;
  error?: string | null;
  transcript: TranscriptEntry[];
  startedAt: number;
  endedAt?: number;
  /**
   * DESIGN §9: what checked the run's work. undefined: the server said nothing (one from
   * before §9); null: no verdict (the run is going on, or ended before any check).
   */
  verification?: Verification | null;
  usage?: RunUsage;
}

export interface Disposable {
  dispose(): void;
}

export type RunListener = (run: RunInfo) => void;

const FINISHED: ReadonlySet<RunStatus> = new Set(["completed", "failed", "cancelled", "budget_exhausted"]);

export function isFinished(status: RunStatus): boolean {
  return FINISHED.has(status);
}

/** A short one-line rendering of a tool call's arguments, for trees and transcripts. */
export function describeArguments(args: unknown, limit = 80): string {
  if (args === null || args === undefined) return "";
  let text: string;
  if (typeof args === "object" && !Array.isArray(args)) {
    text = Object.entries(args as Record<string, unknown>)
      .map(([k, v]) => `${k}=${typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v) ?? typeof v}`)
      .join(", ");
  } else {
    text = JSON.stringify(args) ?? typeof args;
  }
  text = text.replace(/\s+/g, " ");
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** The transcript's last line: "Run completed · unverified: <reason> — <summary>" (no verdict: "Run completed: <summary>"). */
function finishedText(run: RunInfo, said: string | null | undefined): string {
  const v = verdict(run.status, run.verification);
  const head = `Run ${run.status}${v ? ` · ${v.text}` : ""}`;
  // "Run cancelled", not "Run cancelled: cancelled"
  if (said && said.trim().toLowerCase() === run.status.replace("_", " ")) said = undefined;
  return said ? `${head}${v ? " — " : ": "}${said}` : head;
}

/** What became of a proposal a tool result reports (`{status: "rejected", …}`), if it says. */
function decisionOf(output: unknown): string | undefined {
  if (typeof output !== "object" || output === null) return undefined;
  const status = (output as { status?: unknown }).status;
  return typeof status === "string" ? status : undefined;
}

export class RunStore {
  private readonly runs = new Map<string, RunInfo>();
  private readonly listeners = new Set<RunListener>();

  constructor(private readonly now: () => number = Date.now) {}

  onDidChange(listener: RunListener): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  get(runId: string): RunInfo | undefined {
    return this.runs.get(runId);
  }

  /** Newest first. */
  list(): RunInfo[] {
    return [...this.runs.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  running(): RunInfo[] {
    return this.list().filter((r) => !isFinished(r.status));
  }

  /** The most recently started run still going, if any. */
  active(): RunInfo | undefined {
    return this.running()[0];
  }

  /** A run the extension just started (`agent/run` answered with its id and session). */
  started(runId: string, goal: string, sessionId?: string): RunInfo {
    const run = this.ensure(runId, goal);
    if (sessionId) run.sessionId = sessionId;
    if (!run.transcript.some((e) => e.kind === "started")) {
      run.transcript.unshift({ at: this.now(), kind: "started", text: `Goal: ${goal}` });
    }
    this.changed(run);
    return run;
  }

  /** Fold one `agent/event` into the model; returns the run it belongs to. */
  apply(event: AgentEvent): RunInfo {
    const run = this.ensure(event.runId, event.kind === "status" ? event.goal : undefined);
    const at = this.now();
    switch (event.kind) {
      case "status":
        if (event.goal && !run.goal) run.goal = event.goal;
        if (event.phase) run.phase = event.phase;
        if (typeof event.steps === "number") run.steps = event.steps;
        if (event.status && !isFinished(run.status)) run.status = event.status;
        if (event.phase === "planning") run.transcript.push({ at, kind: "status", text: "Planning…" });
        // a model turn starts: "thinking…" with its seconds until its call (or its streamed text)
        if (event.phase) run.stream = { text: "", chars: 0, startedAt: at, phase: event.phase };
        break;
      case "task": {
        const known = run.tasks.some((t) => t.index === event.index);
        const task = this.task(run, event.index, event.title);
        const was = known ? task.status : undefined;
        task.title = event.title || task.title;
        task.status = event.status;
        if (event.result !== undefined) task.result = event.result;
        if (was !== task.status) {
          const suffix = event.result && task.status !== "running" ? ` — ${event.result}` : "";
          run.transcript.push({ at, kind: "task", text: `Task ${event.index + 1} ${task.status}: ${task.title}${suffix}` });
        }
        break;
      }
      case "thought":
        run.stream = undefined;
        run.transcript.push({ at, kind: "thought", text: event.text });
        break;
      case "stream": {
        const text = typeof event.text === "string" ? event.text : "";
        const same = run.stream && (run.stream.phase === event.phase || event.phase === undefined);
        const prev = same ? run.stream : undefined;
        run.stream = {
          text: `${prev?.text ?? ""}${text}`.slice(-2000),
          chars: (prev?.chars ?? 0) + text.length,
          startedAt: prev?.startedAt ?? at,
          phase: event.phase,
        };
        break;
      }
      case "rules": {
        const files = Array.isArray(event.files) ? event.files : [];
        run.rules = files
          .map((f) => (typeof f === "string" ? f : f && typeof f.path === "string" ? `${f.path}${f.cut ? " (cut)" : ""}` : undefined))
          .filter((f): f is string => typeof f === "string");
        run.transcript.push({ at, kind: "rules", text: run.rules.length ? `Rules read: ${run.rules.join(", ")}` : "No rules files" });
        break;
      }
      case "warning":
        run.transcript.push({ at, kind: "warning", text: `Warning${event.subject ? ` (${event.subject})` : ""}: ${event.message}` });
        break;
      case "tool_call": {
        run.stream = undefined;
        const step: StepInfo = {
          id: event.id,
          name: event.name,
          arguments: event.arguments,
          task: typeof event.task === "number" ? event.task : null,
          status: "running",
          startedAt: at,
        };
        const owner = step.task === null ? undefined : run.tasks.find((t) => t.index === step.task);
        (owner ? owner.steps : run.looseSteps).push(step);
        run.steps = Math.max(run.steps, this.allSteps(run).length);
        run.transcript.push({ at, kind: "tool_call", text: `→ ${event.name}(${describeArguments(event.arguments)})` });
        break;
      }
      case "tool_result": {
        const step = this.allSteps(run).find((s) => s.id === event.id);
        const ok = event.ok !== false && !event.error;
        const decided = decisionOf(event.output);
        if (step) {
          step.status = ok ? (decided === "rejected" || decided === "stale" ? "rejected" : "ok") : "error";
          step.durationMs = event.durationMs ?? at - step.startedAt;
          step.error = event.error ?? null;
          step.output = event.output;
        }
        const took = typeof event.durationMs === "number" ? ` (${Math.round(event.durationMs)} ms)` : "";
        const text = ok
          ? `← ${event.name} ${decided === "rejected" || decided === "stale" ? decided : "ok"}${took}`
          : `← ${event.name} ${event.error?.type ?? "error"}${took}: ${event.error?.message ?? ""}`;
        run.transcript.push({ at, kind: "tool_result", text });
        break;
      }
      case "proposal": {
        const id = event.proposal?.id;
        if (id && !run.proposals.includes(id)) run.proposals.push(id);
        if (id && event.proposal.status) run.proposalStatus = { ...run.proposalStatus, [id]: event.proposal.status };
        const verb = event.action === "created" ? "proposed" : event.proposal?.status ?? "resolved";
        const comment = event.proposal?.comment ? ` (“${event.proposal.comment}”)` : "";
        run.transcript.push({ at, kind: "proposal", text: `Edit ${verb}: ${event.proposal?.title ?? id}${comment}` });
        break;
      }
      case "error":
        run.transcript.push({ at, kind: "error", text: `${event.type}: ${event.message}` });
        break;
      case "finished":
        run.stream = undefined;
        run.status = event.status;
        run.summary = event.summary ?? run.summary;
        run.error = event.error ?? run.error;
        if (typeof event.steps === "number") run.steps = event.steps;
        this.keepVerdict(run, event);
        run.endedAt = at;
        for (const step of this.allSteps(run)) if (step.status === "running") step.status = "error";
        run.transcript.push({ at, kind: "finished", text: finishedText(run, event.summary ?? event.error) });
        break;
    }
    this.changed(run);
    return run;
  }

  /**
   * The server went away: the runs it was running are over (they cannot report any more).
   * Each becomes `failed` with the reason, so progress closes and the views show it.
   */
  serverStopped(reason: string): RunInfo[] {
    const ended = this.running();
    for (const run of ended) {
      this.apply({ runId: run.runId, kind: "finished", status: "failed", error: reason, steps: run.steps });
    }
    return ended;
  }

  /** Reconcile with an `agent/status` answer (e.g. after a reconnect). */
  applyStatus(status: AgentStatusResult): RunInfo {
    const run = this.ensure(status.runId, status.goal);
    if (status.sessionId) run.sessionId = status.sessionId;
    run.status = status.status;
    run.steps = status.steps;
    run.summary = status.summary ?? run.summary;
    this.keepVerdict(run, status);
    status.tasks.forEach((t, index) => {
      const task = this.task(run, index, t.title);
      task.status = t.status;
    });
    for (const id of status.proposals) if (!run.proposals.includes(id)) run.proposals.push(id);
    if (isFinished(run.status) && run.endedAt === undefined) run.endedAt = this.now();
    this.changed(run);
    return run;
  }

  /** The whole transcript as Markdown (the read-only transcript document). */
  transcriptMarkdown(runId: string): string {
    return runMarkdown(this.runs.get(runId), runId);
  }

  // --- internals ----------------------------------------------------------------------------------
  /** The verification and usage of a finished event or a status answer, as far as they are sent. */
  private keepVerdict(run: RunInfo, sent: { verification?: unknown; usage?: unknown }): void {
    const verification = readVerification(sent.verification);
    if (verification !== undefined) run.verification = verification;
    run.usage = readUsage(sent.usage) ?? run.usage;
  }

  private ensure(runId: string, goal?: string): RunInfo {
    let run = this.runs.get(runId);
    if (!run) {
      run = {
        runId,
        goal: goal ?? "",
        status: "running",
        steps: 0,
        tasks: [],
        looseSteps: [],
        proposals: [],
        transcript: [],
        startedAt: this.now(),
      };
      this.runs.set(runId, run);
    } else if (goal && !run.goal) {
      run.goal = goal;
    }
    return run;
  }

  private task(run: RunInfo, index: number, title: string): TaskInfo {
    let task = run.tasks.find((t) => t.index === index);
    if (!task) {
      task = { index, title, status: "pending", steps: [] };
      run.tasks.push(task);
      run.tasks.sort((a, b) => a.index - b.index);
      // calls made before the task was announced move under it
      const early = run.looseSteps.filter((s) => s.task === index);
      if (early.length) {
        task.steps.push(...early);
        run.looseSteps = run.looseSteps.filter((s) => s.task !== index);
      }
    }
    return task;
  }

  private allSteps(run: RunInfo): StepInfo[] {
    return [...run.tasks.flatMap((t) => t.steps), ...run.looseSteps];
  }

  private changed(run: RunInfo): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(run);
      } catch (err) {
        console.error("agentls: a run listener failed", err);
      }
    }
  }
}
