/**
 * What every module of the extension is handed: the one context object (the model of
 * rust-analyzer's `ctx.ts`). `activate()` builds it and passes it to each module's
 * `register(ctx)`; views and commands never reach for globals.
 * This file declares the shape; the implementation lives in `context.ts`.
 */

import type * as vscode from "vscode";
import type { RequestType } from "vscode-languageclient";
import type { AgentRunParams, Approval, McpServerEntry, Mode, ProposalInfo, ShellSandbox, ToolProtocol } from "./protocol";
import type { RunStore } from "./runs/runStore";

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
}

export interface RunOptions {
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
}

export interface AgentCtx {
  readonly extension: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  readonly runs: RunStore;
  readonly proposals: Proposals;
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
