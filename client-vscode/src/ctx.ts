/**
 * What every module of the extension is handed: the one context object (the model of
 * rust-analyzer's `ctx.ts`). `activate()` builds it and passes it to each module's
 * `register(ctx)`; views and commands never reach for globals.
 * This file declares the shape; the implementation lives in `context.ts`.
 */

import type * as vscode from "vscode";
import type { RequestType } from "vscode-languageclient";
import type { AgentRunParams, Approval, McpServerEntry, Mode, ProposalInfo, ShellSandbox, ToolProtocol } from "./protocol";
import type { EditorContext } from "./editorContext";
import type { RunStore } from "./runs/runStore";
import type { SessionList } from "./runs/sessions";

/** DESIGN §9 `autoApprove` / `autoApproveDeny`. */
export interface AutoApproveRules {
  tools?: readonly string[];
  paths?: readonly string[];
  commands?: readonly string[];
}

/** The settings as the extension uses them (config.ts reads them in one place). */
export interface AgentConfig {
  model: string;
  baseUrl: string | null;
  apiKeyEnv: string;
  toolProtocol: ToolProtocol;
  mode: Mode;
  approval: Approval;
  maxSteps: number;
  navigation: boolean;
  serverCommand: string;
  proposalTimeoutS: number;
  indexJobs: number;
  indexCache: boolean;
  searchUrl: string | null;
  webAllow: readonly string[];
  webDeny: readonly string[];
  webMaxBytes: number;
  webTimeoutS: number;
  shellSandbox: ShellSandbox;
  /** MCP servers whose tools the agent gets (in an untrusted workspace: the user's own only) */
  mcpServers: Readonly<Record<string, McpServerEntry>>;
  autoApprove: AutoApproveRules;
  autoApproveDeny: AutoApproveRules;
  /** read the project's rules files into each run (DESIGN §9) */
  rules: boolean;
}

export interface RunOptions {
  /** continue this session (DESIGN §9); a `run:<id>` key (a server without sessions) is not sent */
  sessionId?: string;
  /** false: leave the editor's file and selection out (the user removed the chip) */
  withEditor?: boolean;
  mode?: Mode;
  approval?: Approval;
  maxSteps?: number;
  context?: AgentRunParams["context"];
}

/** Pending proposals and the decisions on them (proposals/manager.ts). */
export interface Proposals {
  /** pending ones, oldest first */
  pending(): ProposalInfo[];
  get(id: string): ProposalInfo | undefined;
  readonly onDidChange: vscode.Event<void>;
  /** open the diff editor(s) of a proposal */
  open(id: string): Promise<void>;
  /** apply (through workspace.applyEdit), save, answer agent/resolveProposal */
  accept(id: string, hunks?: number[]): Promise<void>;
  /** answer agent/resolveProposal "rejected" with the comment; undefined → ask for one */
  reject(id: string, comment?: string): Promise<void>;
  /** the ✓ / ✗ lenses of one hunk in a proposed document */
  keepHunk(uri: string, index: number): Promise<void>;
  dropHunk(uri: string, index: number): Promise<void>;
}

export interface AgentCtx {
  readonly extension: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly runs: RunStore;
  readonly proposals: Proposals;
  /** the sessions and a record of their runs (kept across reloads) */
  readonly sessions: SessionList;
  readonly onDidChangeSessions: vscode.Event<void>;
  /** ask the server for its sessions again (agent/sessions; ignored by a server without them) */
  refreshSessions(): Promise<void>;
  /** the file and selection that go with a goal */
  readonly editorContext: EditorContext;
  /** the settings now */
  config(): AgentConfig;
  /** false in an untrusted workspace: no agent runs, no shell tools */
  readonly trusted: boolean;
  /** fired when the server (re)started and answered initialize, or stopped */
  readonly onDidChangeServer: vscode.Event<"running" | "stopped">;
  readonly serverRunning: boolean;
  /** a typed request to the server; rejects with a readable Error when it is not running */
  request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R>;
  /** start a run (trust checked, defaults from the settings); resolves to its runId */
  startRun(goal: string, options?: RunOptions): Promise<string | undefined>;
  cancelRun(runId: string): Promise<void>;
  restartServer(): Promise<void>;
}
