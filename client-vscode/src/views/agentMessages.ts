/**
 * The messages between the Agent view's webview (webview/agent.ts) and the extension
 * (agentView.ts), typed once and imported by both sides, with the guard that checks what
 * the webview sends before the extension acts on it.
 * Must not know: VS Code or the DOM (types and plain functions only; the webview bundles it).
 */

import type { Approval, Mode, RunStatus, TaskStatus } from "../protocol";
import type { StepStatus, TranscriptEntry } from "../runs/runStore";
import type { Verdict } from "../runs/verdict";

// --- what the webview shows ----------------------------------------------------------------------
export interface StepView {
  id: string;
  /** "read_file path=\"a.py\"" */
  label: string;
  status: StepStatus;
  /** "ok · 12 ms" */
  description: string;
  /** arguments in full and the error / output excerpt */
  tooltip: string;
}

export interface TaskView {
  index: number;
  title: string;
  status: TaskStatus;
  steps: StepView[];
}

export interface RunView {
  runId: string;
  goal: string;
  status: RunStatus;
  /** "running · 3 steps · 12 s", "completed · unverified: <reason> · 3 steps · 12 s" */
  description: string;
  tasks: TaskView[];
  /** tool calls that name no task */
  looseSteps: StepView[];
  summary: string | null;
  error: string | null;
  /** DESIGN §9: "verified: tests passed", "unverified: <reason>", a failed check; null: none given */
  verdict: Verdict | null;
  /** the verdict in full, one line per check, "Usage: …" (the header's tooltip) */
  details: string[];
  /** "1,200 tokens in / 80 out · model 4.5 s · context 900 of 8,192 (11 %)", or "" */
  usage: string;
  /** the context-fill bar: contextUsed of contextWindow (null: not reported) */
  contextFill: { used: number; window: number } | null;
  /** the rules files the run read (null: not reported) */
  rules: string[] | null;
  /** a model turn being written: "thinking… 12 s · 35 tok/s" and its text so far */
  stream: { label: string; text: string } | null;
  /** what happened, from facts the server reports: files changed, proposals decided, checks */
  facts: string[];
}

export interface SessionView {
  sessionId: string;
  title: string;
  /** false: a run of a server without sessions (cannot be continued) */
  continuable: boolean;
}

export interface MentionItem {
  /** the token put in the goal: "@src/app.py", "@symbol:greet", "@problems" */
  insert: string;
  detail: string;
}

export interface ProposalView {
  id: string;
  runId: string | null;
  title: string;
  /** relative path of the file it changes */
  path: string;
}

export interface ViewState {
  server: "running" | "stopped";
  trusted: boolean;
  /** the settings' mode and approval: what the selects show until the user picks */
  defaults: { mode: Mode; approval: Approval };
  modes: readonly Mode[];
  approvals: readonly Approval[];
  /** goals run from the box, oldest first */
  history: string[];
  /** newest first */
  runs: RunView[];
  proposals: ProposalView[];
  /** the run whose transcript is shown */
  selectedRunId: string | null;
  /** the configured model ("openai:gpt-4o-mini", "local") */
  model: string;
  /** newest first */
  sessions: SessionView[];
  /** the conversation on screen (its runs are `runs`, oldest first); null: a new session */
  selectedSessionId: string | null;
  /** the editor's file and selection that go with the next goal (the chip), or null */
  context: { label: string } | null;
}

// --- extension → webview -------------------------------------------------------------------------
export type ToWebview =
  | { type: "state"; state: ViewState }
  /** transcript entries of `runId` from index `from` on; `reset` = start over (another run) */
  | { type: "transcript"; runId: string | null; from: number; reset: boolean; entries: TranscriptEntry[] }
  /** the Run request failed or was refused (e.g. untrusted) */
  | { type: "notice"; text: string; level: "info" | "error" }
  /** put the goal back in the box (a run did not start) or clear it */
  | { type: "goal"; text: string; focus: boolean }
  /** the completions of the `@…` being typed (answer to `mentions` with the same seq) */
  | { type: "mentions"; seq: number; items: MentionItem[] };

// --- webview → extension -------------------------------------------------------------------------
export type FromWebview =
  | { type: "ready" }
  | { type: "run"; goal: string; mode: Mode; approval: Approval; sessionId: string | null; withEditor: boolean }
  | { type: "selectSession"; sessionId: string }
  | { type: "newSession" }
  | { type: "removeContext" }
  | { type: "walkthrough" }
  | { type: "mentions"; seq: number; query: string }
  | { type: "cancel"; runId: string }
  | { type: "selectRun"; runId: string }
  | { type: "openTranscript"; runId: string }
  | { type: "proposal"; action: "open" | "accept" | "reject"; id: string }
  | { type: "restartServer" }
  | { type: "manageTrust" };

const MODE_SET: ReadonlySet<string> = new Set(["read-only", "dev", "ci", "full"]);
const APPROVAL_SET: ReadonlySet<string> = new Set(["ask", "auto", "never", "plan"]);
const PROPOSAL_ACTIONS: ReadonlySet<string> = new Set(["open", "accept", "reject"]);

function str(v: unknown, max = 100_000): v is string {
  return typeof v === "string" && v.length <= max;
}

/** The webview's message, if it is one of ours and well-formed; anything else is dropped. */
export function parseFromWebview(raw: unknown): FromWebview | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case "ready":
    case "restartServer":
    case "manageTrust":
    case "newSession":
    case "removeContext":
    case "walkthrough":
      return { type: m.type };
    case "run":
      if (str(m.goal) && str(m.mode) && MODE_SET.has(m.mode) && str(m.approval) && APPROVAL_SET.has(m.approval)) {
        const sessionId = str(m.sessionId, 200) && m.sessionId ? m.sessionId : null;
        return { type: "run", goal: m.goal, mode: m.mode as Mode, approval: m.approval as Approval, sessionId, withEditor: m.withEditor !== false };
      }
      return undefined;
    case "selectSession":
      return str(m.sessionId, 200) && m.sessionId ? { type: "selectSession", sessionId: m.sessionId } : undefined;
    case "mentions":
      return typeof m.seq === "number" && str(m.query, 200) ? { type: "mentions", seq: m.seq, query: m.query } : undefined;
    case "cancel":
    case "selectRun":
    case "openTranscript":
      return str(m.runId, 200) && m.runId ? { type: m.type, runId: m.runId } : undefined;
    case "proposal":
      if (str(m.action) && PROPOSAL_ACTIONS.has(m.action) && str(m.id, 200) && m.id) {
        return { type: "proposal", action: m.action as "open" | "accept" | "reject", id: m.id };
      }
      return undefined;
  }
  return undefined;
}
