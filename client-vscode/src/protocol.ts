/**
 * Every name the extension shares with the server or with VS Code, declared once:
 * the `agent/*` requests and notifications (DESIGN §4, §5) as typed vscode-languageclient
 * RequestType/NotificationType, their payloads, the command ids (DESIGN §8, mirrored in
 * package.json), view ids, URI schemes and context keys.
 * Must not know: VS Code's UI (this module imports no `vscode`), so the unit tests use it.
 */

import { NotificationType, RequestType } from "vscode-languageserver-protocol";

// --- settings (DESIGN §5: initializationOptions = workspace/configuration section) --------
export const SECTION = "agentls";
export type Mode = "read-only" | "dev" | "ci" | "full";
export type Approval = "ask" | "auto" | "never" | "plan";
export const MODES: readonly Mode[] = ["read-only", "dev", "ci", "full"];
export const APPROVALS: readonly Approval[] = ["ask", "auto", "never", "plan"];
/** How an `openai:` endpoint's tool calls travel (DESIGN §6). */
export type ToolProtocol = "auto" | "native" | "json" | "text";
export const TOOL_PROTOCOLS: readonly ToolProtocol[] = ["auto", "native", "json", "text"];
/** How shell tools are confined (DESIGN §3 Sandbox); "none" only when the user chooses it. */
export type ShellSandbox = "auto" | "bubblewrap" | "landlock" | "none";
export const SHELL_SANDBOXES: readonly ShellSandbox[] = ["auto", "bubblewrap", "landlock", "none"];
/** The permission flags (DESIGN §3), as an MCP server's entry lists the ones its tools need. */
export const PERMISSIONS = ["filesystemRead", "filesystemWrite", "shellExecution", "gitWrite", "network"] as const;
/** One `mcpServers` entry (DESIGN §10): a stdio command, or an HTTP server's URL. */
export interface McpServerEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  type?: "stdio" | "http" | "streamable-http" | "sse";
  permissions?: (typeof PERMISSIONS)[number][];
}

// --- commands (contract ids; titles live in package.json) ---------------------------------
export const Commands = {
  runGoal: "agentls.runGoal",
  cancelRun: "agentls.cancelRun",
  showTasks: "agentls.showTasks",
  showTools: "agentls.showTools",
  showDependencyGraph: "agentls.showDependencyGraph",
  setApiKey: "agentls.setApiKey",
  restartServer: "agentls.restartServer",
  acceptProposal: "agentls.acceptProposal",
  rejectProposal: "agentls.rejectProposal",
  keepHunk: "agentls.keepHunk",
  dropHunk: "agentls.dropHunk",
  undoRun: "agentls.undoRun",
  openProposal: "agentls.openProposal",
  openTranscript: "agentls.openTranscript",
  showOutput: "agentls.showOutput",
} as const;

/** Commands the server registers (workspace/executeCommand); the code actions use them. */
export const ServerCommands = {
  run: "agentls.agent.run",
  cancel: "agentls.agent.cancel",
} as const;

// --- views, schemes, context keys -------------------------------------------------------------
export const Views = {
  container: "agentls",
  agent: "agentls.agentView",
} as const;

export const Schemes = {
  /** The proposed side of a diff: agentls-proposal:/<path>?id=<proposalId> */
  proposal: "agentls-proposal",
  /** The original side of a diff for a file that does not exist yet (empty). */
  original: "agentls-original",
  /** A run's transcript as a read-only document: agentls-transcript:/<runId>.md */
  transcript: "agentls-transcript",
} as const;

export const ContextKeys = {
  pendingProposals: "agentls.pendingProposals",
  proposalHasHunks: "agentls.proposalHasHunks",
  runActive: "agentls.runActive",
  trusted: "agentls.trusted",
} as const;

export const SECRET_API_KEY = "agentls.apiKey";

// --- payloads -------------------------------------------------------------------------------
export interface Position {
  line: number;
  character: number;
}
export interface Range {
  start: Position;
  end: Position;
}
export interface TextEdit {
  range: Range;
  newText: string;
}
export interface TextDocumentEdit {
  textDocument: { uri: string; version: number | null };
  edits: TextEdit[];
}
export interface CreateFile {
  kind: "create";
  uri: string;
  options?: { overwrite?: boolean; ignoreIfExists?: boolean };
}
/** The undo of a run deletes the files the run created (after an edit emptying them). */
export interface DeleteFile {
  kind: "delete";
  uri: string;
  options?: { recursive?: boolean; ignoreIfNotExists?: boolean };
}
export interface WorkspaceEditJson {
  documentChanges?: (TextDocumentEdit | CreateFile | DeleteFile)[];
  changes?: Record<string, TextEdit[]>;
}
/** DESIGN §4 per-hunk review: each hunk's TextEdits against the same document version. */
export interface Hunk {
  index: number;
  uri: string;
  diff: string;
  edits: TextEdit[];
}

export type ProposalStatus = "pending" | "applied" | "rejected" | "stale";

/**
 * `agent/proposal {id, runId, uri, title, diff, edit, hunks}` (server lsp/proposals.py; `hunks`
 * is always sent, maybe empty; hasHunks() still checks, for a server from before per-hunk review).
 */
export interface ProposalParams {
  id: string;
  runId: string | null;
  uri: string;
  title: string;
  diff: string;
  edit: WorkspaceEditJson;
  hunks: Hunk[];
  /** what the edit does, in a few words, when the server says (else the title is built from the diff) */
  summary?: string | null;
}

/** An entry of `agent/proposals` (ProposalParams plus its state). */
export interface ProposalInfo extends ProposalParams {
  path?: string;
  status: ProposalStatus;
  comment?: string | null;
  note?: string | null;
  createdAt?: number;
}

export type RunStatus = "running" | "completed" | "failed" | "cancelled" | "budget_exhausted";
export type TaskStatus = "pending" | "running" | "done" | "failed" | "skipped";

export interface AgentRunParams {
  goal: string;
  /** DESIGN §9: continue this session (its earlier goals, summaries and decisions) */
  sessionId?: string;
  mode?: Mode;
  approval?: Approval;
  maxSteps?: number;
  /** `diagnostics`: the LSP diagnostics an "Agent: Fix this" code action carries */
  context?: { uri?: string; range?: Range; diagnostics?: RunDiagnostic[]; mentions?: string[] };
}

/** `agent/run` → {runId, sessionId} (a server before §9 sends only runId). */
export interface AgentRunResult {
  runId: string;
  sessionId?: string;
}

/** `agent/sessions {}` → {sessions} (DESIGN §9). */
export interface SessionInfo {
  sessionId: string;
  title: string;
  /** how many runs it holds (the server of 0.2.0), or their runIds in order */
  runs: number | string[];
  /** when it last changed: epoch seconds (or an ISO date) */
  updated: string | number;
}

/** `agent/plan {runId, tasks}` (server → client request, approval `plan`). */
export interface PlanParams {
  runId: string;
  tasks: string[];
}
export type PlanResult = { tasks: string[] } | { decision: "rejected"; comment?: string };

/** A diagnostic in a run's context (LSP `Diagnostic`; only these fields are read). */
export interface RunDiagnostic {
  range: Range;
  message: string;
  source?: string;
}

/** What one independent check of a run's work found (DESIGN §9). */
export interface Check {
  kind: "tests" | "parse" | "goal" | "answer";
  passed: boolean;
  /** one line, or several for failing tests (the failing test, its assertion) */
  detail: string;
  /** the command that ran (tests) */
  command?: string;
}

/**
 * DESIGN §9 honest completion: `verified` true (an independent check ran and passed), false (a
 * check failed: the run is then not `completed`), null (no check could run; `unverified` says
 * why, and a `completed` run is shown as unverified).
 */
export interface Verification {
  verified: boolean | null;
  checks: Check[];
  unverified?: string;
}

/**
 * DESIGN §9 usage: tokens, the time spent in model turns, the model's context window and the
 * last turn's prompt (the context used). A server from before §9 sends only promptTokens,
 * completionTokens and `cost: null`; the run store reads it field by field.
 */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  modelSeconds: number;
  contextWindow: number;
  contextUsed: number;
  /** when the provider reports it */
  cost?: number;
}

/** `agent/status` → RunState.to_dict() (server agent/run.py). */
export interface AgentStatusResult {
  runId: string;
  sessionId?: string;
  status: RunStatus;
  goal: string;
  tasks: { title: string; status: TaskStatus }[];
  steps: number;
  proposals: string[];
  summary: string | null;
  /** null while the run goes on (and on a server from before §9: absent) */
  verification?: Verification | null;
  usage?: Usage;
}

export interface ToolInfo {
  name: string;
  description: string;
  category: string;
  inputSchema: unknown;
  outputSchema: unknown;
  permissions: string[];
  enabled: boolean;
  disabledReason: string | null;
}

export type ToolError = { type: "validation" | "runtime" | "permission"; message: string; tool: string };
export type ExecuteToolResult = { ok: true; output: unknown } | { ok: false; error: ToolError };

/**
 * `agent/event {runId, kind, ...}`. Kinds (server agent/events.py): status, task, thought,
 * stream, tool_call, tool_result, proposal, error, rules, warning, finished.
 */
export type AgentEvent =
  | { runId: string; kind: "status"; status: RunStatus; goal?: string; phase?: "planning" | "acting"; steps?: number }
  | { runId: string; kind: "task"; index: number; title: string; status: TaskStatus; result?: string | null }
  | { runId: string; kind: "thought"; task?: number; text: string }
  | { runId: string; kind: "tool_call"; task?: number; id: string; name: string; arguments: unknown }
  | {
      runId: string;
      kind: "tool_result";
      task?: number;
      id: string;
      name: string;
      durationMs?: number;
      ok: boolean;
      output?: unknown;
      error?: ToolError | null;
    }
  | { runId: string; kind: "proposal"; action: "created" | "resolved"; proposal: ProposalInfo }
  | { runId: string; kind: "error"; type: string; message: string }
  /** DESIGN §9: the rules files the run read, in order (cut: shortened to the budget) */
  | { runId: string; kind: "rules"; files?: ({ path: string; chars?: number; cut?: boolean } | string)[] }
  /** a mention that brings nothing, or a rules file left out (source "mention" | "rules") */
  | { runId: string; kind: "warning"; source?: string; subject?: string; message: string }
  /** a model turn as it is written (docs/lsp-extensions.md) */
  | { runId: string; kind: "stream"; task?: number; phase?: "planning" | "acting"; text: string }
  | {
      runId: string;
      kind: "finished";
      status: RunStatus;
      summary?: string | null;
      error?: string | null;
      steps?: number;
      /** absent from a server before DESIGN §9; null when the run ended before any verdict */
      verification?: Verification | null;
      usage?: Usage;
    };

export interface ResolveProposalParams {
  id: string;
  decision: "accepted" | "rejected";
  comment?: string;
  /** indexes of the hunks applied, when only some were (DESIGN §4 per-hunk review) */
  hunks?: number[];
  /** DESIGN §9 edit before accept: the text applied to each file (uri → text) */
  content?: Record<string, string>;
}
export interface ResolveProposalResult {
  id: string;
  status: ProposalStatus;
}

export interface UndoResult {
  proposalId: string | null;
  files: string[];
  skipped: { path: string; reason: string }[];
}

// --- the agent/* methods, typed once ---------------------------------------------------------
export const AgentRun = new RequestType<AgentRunParams, AgentRunResult, void>("agent/run");
export const AgentSessions = new RequestType<Record<string, never>, { sessions: SessionInfo[] }, void>("agent/sessions");
/** server → client: the plan to review before the first task (approval `plan`) */
export const AgentPlan = new RequestType<PlanParams, PlanResult, void>("agent/plan");
export const AgentStatus = new RequestType<{ runId: string }, AgentStatusResult, void>("agent/status");
export const AgentCancel = new RequestType<{ runId: string }, unknown, void>("agent/cancel");
export const AgentTools = new RequestType<Record<string, never>, { tools: ToolInfo[] }, void>("agent/tools");
export const AgentExecuteTool = new RequestType<{ name: string; input: unknown; mode?: Mode }, ExecuteToolResult, void>(
  "agent/executeTool",
);
export const AgentProposals = new RequestType<{ runId?: string }, { proposals: ProposalInfo[] }, void>("agent/proposals");
export const AgentResolveProposal = new RequestType<ResolveProposalParams, ResolveProposalResult, void>(
  "agent/resolveProposal",
);
export const AgentUndo = new RequestType<{ runId: string }, UndoResult, void>("agent/undo");

export const AgentEventNotification = new NotificationType<AgentEvent>("agent/event");
export const AgentProposalNotification = new NotificationType<ProposalParams>("agent/proposal");

/** The client capability that makes the server send `agent/proposal` (DESIGN §4). */
export const EXPERIMENTAL_CAPABILITIES = { agentls: { proposals: true } } as const;

/**
 * The server's work-done progress tokens (lsp/run_reporter.py, lsp/features/lifecycle.py):
 * `agentls-<runId>` for a run, `agentls-index-<hex>` for indexing.
 */
export function isRunProgressToken(token: unknown): boolean {
  return typeof token === "string" && token.startsWith("agentls-") && !token.startsWith("agentls-index-");
}
