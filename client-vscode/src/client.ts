/**
 * The LanguageClient of the agentls server: how it is started, what it announces and the
 * middleware that keeps the editor's side of the contracts (DESIGN §4, §5, §8):
 * - the `experimental.agentls.proposals` capability (a StaticFeature), so proposals come
 *   as `agent/proposal` notifications and open as diffs;
 * - settings: `initializationOptions`, the `workspace/configuration` answer for section
 *   `agentls` and `workspace/didChangeConfiguration` all carry `serverSettings()` — so an
 *   untrusted workspace's server gets `mode: "read-only"` on every path;
 * - `agentls.agent.run` (the server's code-action command, auto-registered by the client)
 *   goes through `onRunCommand` (ctx.startRun: trust, RunStore, progress) instead of
 *   straight to the server; in an untrusted workspace those code actions are filtered out;
 * - progress: the server opens a work-done progress `agentls-<runId>` per run; the
 *   extension shows its own cancellable notification per run (runs/progress.ts), so the
 *   server's run progress is dropped here (only its `end` is passed on, to free the
 *   client's bookkeeping). Other progress (indexing: `agentls-index-…`) is shown as usual;
 * - failures: the client's own forced error pop-ups are turned into log lines and one
 *   call of `onFatal`, so the user sees one clear message with what to do.
 * Must not know: views, commands, the RunStore.
 */

import * as vscode from "vscode";
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  type ClientCapabilities,
  type LanguageClientOptions,
  type ServerOptions,
  type StaticFeature,
} from "vscode-languageclient/node";
import type { ServerSettings } from "./config";
import { EXPERIMENTAL_CAPABILITIES, isRunProgressToken, SECTION, ServerCommands, type AgentRunParams } from "./protocol";

export const CLIENT_ID = "agentls";
export const CLIENT_NAME = "agentls";

/** Announces `experimental: {agentls: {proposals: true}}` (DESIGN §4). */
class ProposalsCapability implements StaticFeature {
  getState() {
    return { kind: "static" as const };
  }
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    const experimental = (capabilities.experimental ?? {}) as Record<string, unknown>;
    capabilities.experimental = { ...experimental, ...EXPERIMENTAL_CAPABILITIES };
  }
  initialize(): void {}
  clear(): void {}
}

/** The client, with forced error pop-ups turned into log lines plus `onFatal`. */
class AgentLanguageClient extends LanguageClient {
  constructor(
    serverOptions: ServerOptions,
    clientOptions: LanguageClientOptions,
    private readonly onForcedError: (message: string) => void,
  ) {
    super(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  }
  override error(message: string, data?: unknown, showNotification?: boolean | "force"): void {
    super.error(message, data, false);
    if (showNotification === "force") this.onForcedError(message);
  }
}

export interface ClientSetup {
  command: string;
  args: string[];
  cwd: string | undefined;
  env: Record<string, string>;
  log: vscode.LogOutputChannel;
  /** the server settings now (trust applied) */
  settings(): ServerSettings;
  trusted(): boolean;
  /** the code actions' `agentls.agent.run` command */
  onRunCommand(params: AgentRunParams): Promise<unknown>;
  /** the connection failed for good: show one message */
  onFatal(message: string): void;
}

const DOCUMENTS = ["python", "typescript", "typescriptreact", "javascript", "javascriptreact"];
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 3 * 60_000;

export function createClient(setup: ClientSetup): LanguageClient {
  const serverOptions: ServerOptions = {
    command: setup.command,
    args: setup.args,
    options: { cwd: setup.cwd, env: setup.env },
  };
  const restarts: number[] = [];
  let ranOnce = false;

  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENTS.map((language) => ({ scheme: "file", language })),
    outputChannel: setup.log,
    traceOutputChannel: setup.log,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions: () => setup.settings(),
    synchronize: { configurationSection: SECTION },
    // a failed initialize is reported once by the context (no pop-up of the client's own)
    initializationFailedHandler: (error) => {
      setup.log.error(`the server failed initialize: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    },
    errorHandler: {
      error: (error, _message, count) => {
        setup.log.error(`connection error: ${error.message}`);
        return count !== undefined && count > 3
          ? { action: ErrorAction.Shutdown, handled: true }
          : { action: ErrorAction.Continue, handled: true };
      },
      closed: () => {
        if (!ranOnce) return { action: CloseAction.DoNotRestart, handled: true }; // the start failed: reported once
        const now = Date.now();
        while (restarts.length && now - restarts[0] > RESTART_WINDOW_MS) restarts.shift();
        if (restarts.length < MAX_RESTARTS) {
          restarts.push(now);
          setup.log.warn(`the server exited; restarting it (${restarts.length}/${MAX_RESTARTS} within 3 minutes)`);
          return { action: CloseAction.Restart, handled: true };
        }
        setup.onFatal(
          `agentls: the language server exited ${MAX_RESTARTS + 1} times within 3 minutes and is not restarted again. ` +
            "See Agent: Show Server Output for its messages, then run Agent: Restart Server.",
        );
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    },
    middleware: {
      executeCommand: async (command, args, next) => {
        if (command === ServerCommands.run) {
          const params = (args[0] ?? {}) as AgentRunParams;
          return setup.onRunCommand(params);
        }
        return next(command, args) as unknown;
      },
      provideCodeActions: async (document, range, context, token, next) => {
        const actions = await next(document, range, context, token);
        if (!actions || setup.trusted()) return actions;
        return actions.filter((action) => {
          const command = action instanceof vscode.CodeAction ? action.command?.command : action.command;
          return command !== ServerCommands.run;
        });
      },
      handleWorkDoneProgress: (token, params, next) => {
        if (isRunProgressToken(token) && params.kind !== "end") return;
        next(token, params);
      },
      workspace: {
        configuration: async (params, token, next) => {
          const answer = await next(params, token);
          if (!Array.isArray(answer)) return answer;
          return params.items.map((item, i) => (item.section === SECTION ? setup.settings() : (answer[i] as unknown)));
        },
        didChangeConfiguration: async () => {
          if (!client.isRunning()) return;
          await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: setup.settings() } });
        },
      },
    },
  };
  const client = new AgentLanguageClient(serverOptions, clientOptions, (message) => setup.onFatal(message));
  client.registerFeature(new ProposalsCapability());
  client.onDidChangeState((e) => {
    if (e.newState === State.Running) ranOnce = true;
  });
  return client;
}
