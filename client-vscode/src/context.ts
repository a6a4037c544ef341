/**
 * The AgentCtx implementation: owns the language client (start, stop, restart, one clear
 * message when it cannot start), the RunStore fed by `agent/event`, the proposals fed by
 * `agent/proposal`, and starting/cancelling runs (trust checked, defaults from the
 * settings). Starting is never awaited by activate(): requests wait for it instead.
 * Must not know: views, commands, the status bar.
 */

import * as fs from "fs";
import * as vscode from "vscode";
import type { LanguageClient, RequestType } from "vscode-languageclient/node";
import { State } from "vscode-languageclient/node";
import { createClient } from "./client";
import { needsRestart, readConfig, serverEnvironment, serverSettings } from "./config";
import type { AgentConfig, AgentCtx, RunOptions } from "./ctx";
import { errorMessage } from "./log";
import { ProposalManager } from "./proposals/manager";
import {
  AgentCancel,
  AgentEventNotification,
  AgentProposalNotification,
  AgentRun,
  SECRET_API_KEY,
  SECTION,
  type AgentRunParams,
} from "./protocol";
import { RunStore } from "./runs/runStore";
import { installHint, resolveServerCommand, SETTING_KEY } from "./server/resolve";
import { showUntrusted } from "./trust";

type ServerState = "running" | "stopped";

const OPEN_SETTING = "Open Setting";
const SHOW_OUTPUT = "Show Output";
const RESTART = "Restart Server";

export class AgentContext implements AgentCtx, vscode.Disposable {
  readonly runs = new RunStore();
  readonly proposals: ProposalManager;
  private client: LanguageClient | undefined;
  /** the current start (or stop) in progress; operations are queued on it */
  private queue: Promise<void> = Promise.resolve();
  private starting: Promise<void> | undefined;
  /** the client whose start() is under way (its failures are reported by the start) */
  private inStart: LanguageClient | undefined;
  private running = false;
  /** the start failed for good (shown once); requests say so */
  private failure: string | undefined;
  private fatalShown = false;
  private readonly changed = new vscode.EventEmitter<ServerState>();
  readonly onDidChangeServer = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly extension: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    this.proposals = new ProposalManager(this, () => this.client);
    this.disposables.push(this.proposals, this.changed);
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SECTION)) return;
        this.logProblems();
        const keys = needsRestart((k) => e.affectsConfiguration(k));
        if (keys.length) {
          this.log.info(`${keys.join(", ")} changed: restarting the server (it reads ${keys.length > 1 ? "these" : "this"} only when it starts)`);
          void this.restartServer();
        }
      }),
    );
  }

  get trusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  get serverRunning(): boolean {
    return this.running;
  }

  /** Why the server is not running, when it failed to start (for the status bar). */
  get serverFailure(): string | undefined {
    return this.failure;
  }

  config(): AgentConfig {
    return readConfig(vscode.workspace.getConfiguration(SECTION)).config;
  }

  private logProblems(): void {
    for (const problem of readConfig(vscode.workspace.getConfiguration(SECTION)).problems) this.log.warn(problem);
  }

  // --- the server ----------------------------------------------------------------------------
  /** Start the server (queued after any stop in progress). Never rejects. */
  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  restartServer(): Promise<void> {
    this.log.info("restarting the server");
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  /** Run a start or restart after the ones before it; requests wait for the latest. */
  private enqueue(op: () => Promise<void>): Promise<void> {
    const run = this.queue.then(op).catch((err: unknown) => this.log.error(`the server could not be (re)started: ${errorMessage(err)}`));
    this.queue = run;
    this.starting = run;
    void run.finally(() => {
      if (this.starting === run) this.starting = undefined;
    });
    return run;
  }

  private async doStart(): Promise<void> {
    this.failure = undefined;
    this.fatalShown = false;
    this.logProblems();
    const config = this.config();
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const resolution = resolveServerCommand({
      setting: config.serverCommand,
      folders,
      platform: process.platform,
      trusted: this.trusted,
      env: process.env,
      isExecutable,
    });
    if (!resolution.ok) {
      this.fatal(resolution.message);
      return;
    }
    let apiKey: string | undefined;
    try {
      apiKey = await this.extension.secrets.get(SECRET_API_KEY);
    } catch (err) {
      this.log.warn(`could not read the API key from the secret storage: ${errorMessage(err)}`);
    }
    const trustNote = this.trusted ? "" : " — untrusted workspace: read-only mode, no agent runs";
    this.log.info(
      `starting the server: ${resolution.command} ${resolution.args.join(" ")} (${resolution.description})${trustNote}` +
        (apiKey ? `; API key from the secret storage in $${config.apiKeyEnv}` : ""),
    );
    const client = createClient({
      command: resolution.command,
      args: resolution.args,
      cwd: folders[0],
      env: serverEnvironment(process.env, config.apiKeyEnv, apiKey),
      log: this.log,
      settings: () => serverSettings(this.config(), this.trusted),
      trusted: () => this.trusted,
      onRunCommand: (params) => this.runFromCommand(params),
      onFatal: (message) => {
        // while starting, the start itself reports the failure (once)
        if (this.client === client && this.inStart !== client) this.fatal(message, RESTART);
      },
    });
    client.onNotification(AgentEventNotification, (event) => {
      try {
        this.runs.apply(event);
        if (event.kind === "proposal" && event.action === "resolved" && event.proposal?.id) {
          this.proposals.resolvedElsewhere(event.proposal.id, event.proposal.status);
        }
      } catch (err) {
        this.log.error(`agent/event could not be read: ${errorMessage(err)}`);
      }
    });
    client.onNotification(AgentProposalNotification, (proposal) => this.proposals.receive(proposal));
    client.onDidChangeState((e) => {
      if (this.client !== client) return;
      if (e.newState === State.Running) this.setRunning(true);
      else if (e.newState === State.Stopped) this.setRunning(false);
    });
    this.client = client;
    this.inStart = client;
    const started = Date.now();
    try {
      await withTimeout(client.start(), START_TIMEOUT_MS, `it did not answer initialize within ${START_TIMEOUT_MS / 1000} s`);
      this.log.info(`the server is running (initialize answered in ${Date.now() - started} ms)`);
      this.setRunning(true);
    } catch (err) {
      const line = [resolution.command, ...resolution.args].join(" ");
      const why = errorMessage(err);
      const reason = /EPIPE|ECONNRESET|closed|exited/i.test(why) ? `exited before it answered initialize (${why})` : `failed: ${why}`;
      this.fatal(
        `agentls: the language server did not start: \`${line}\` ${reason}. Its messages are in Agent: Show Server Output. ` +
          installHint(process.platform),
      );
      this.client = undefined;
      try {
        await withTimeout(client.dispose(2000), 3000, "");
      } catch {
        /* it never ran, or does not stop: nothing more to do */
      }
    } finally {
      this.inStart = undefined;
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        if (client.needsStop()) await withTimeout(client.stop(5000), 6000, "it did not stop within 6 s");
      } catch (err) {
        this.log.warn(`stopping the server: ${errorMessage(err)}`);
      }
      try {
        await withTimeout(client.dispose(1000), 2000, "");
      } catch {
        /* already gone */
      }
    }
    this.setRunning(false);
  }

  private setRunning(running: boolean): void {
    if (this.running === running) return;
    this.running = running;
    if (!running) {
      this.runs.serverStopped("the agentls server stopped, so the run ended");
      this.proposals.clear();
    }
    this.changed.fire(running ? "running" : "stopped");
  }

  /** One error notification per start attempt: the message and what to do. */
  private fatal(message: string, first: typeof OPEN_SETTING | typeof RESTART = OPEN_SETTING): void {
    this.failure = message;
    this.log.error(message);
    this.changed.fire("stopped");
    if (this.fatalShown) return;
    this.fatalShown = true;
    void vscode.window.showErrorMessage(message, first, SHOW_OUTPUT).then((choice) => {
      if (choice === OPEN_SETTING) void vscode.commands.executeCommand("workbench.action.openSettings", SETTING_KEY);
      else if (choice === RESTART) void this.restartServer();
      else if (choice === SHOW_OUTPUT) this.log.show(true);
    });
  }

  async request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R> {
    if (this.starting) await withTimeout(this.starting, START_TIMEOUT_MS, "the agentls server is still starting").catch(() => undefined);
    const client = this.client;
    if (!client || !this.running) {
      throw new Error(
        this.failure
          ? `the agentls server is not running: ${this.failure}`
          : "the agentls server is not running (Agent: Restart Server starts it; Agent: Show Server Output shows why it stopped)",
      );
    }
    return client.sendRequest<R>(type.method, params);
  }

  // --- runs -----------------------------------------------------------------------------------
  async startRun(goal: string, options: RunOptions = {}): Promise<string | undefined> {
    if (!this.trusted) {
      showUntrusted();
      return undefined;
    }
    if (!goal.trim()) {
      void vscode.window.showWarningMessage("agentls: a run needs a goal.");
      return undefined;
    }
    const config = this.config();
    const params: AgentRunParams = {
      goal,
      mode: options.mode ?? config.mode,
      approval: options.approval ?? config.approval,
      maxSteps: options.maxSteps ?? config.maxSteps,
    };
    if (options.context) params.context = options.context;
    try {
      const { runId } = await this.request(AgentRun, params);
      this.log.info(`run ${runId} started (${params.mode}, approval ${params.approval}, ≤${params.maxSteps} steps): ${goal}`);
      this.runs.started(runId, goal);
      return runId;
    } catch (err) {
      const message = `agentls: the run could not start: ${errorMessage(err)}`;
      this.log.error(message);
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
  }

  /** The code actions' `agentls.agent.run {goal, context}` command. */
  private async runFromCommand(params: AgentRunParams): Promise<{ runId: string } | undefined> {
    const runId = await this.startRun(typeof params.goal === "string" ? params.goal : "", {
      mode: params.mode,
      approval: params.approval,
      maxSteps: params.maxSteps,
      context: params.context,
    });
    return runId ? { runId } : undefined;
  }

  async cancelRun(runId: string): Promise<void> {
    try {
      await this.request(AgentCancel, { runId });
      this.log.info(`run ${runId}: cancel requested`);
    } catch (err) {
      void vscode.window.showErrorMessage(`agentls: could not cancel run ${runId}: ${errorMessage(err)}`);
    }
  }

  async dispose(): Promise<void> {
    await withTimeout(this.queue, 2000, "").catch(() => undefined);
    await this.doStop();
    for (const d of this.disposables) d.dispose();
  }
}

/** How long the server may take to answer `initialize` before the start counts as failed. */
const START_TIMEOUT_MS = 60_000;

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function isExecutable(file: string): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return false;
    if (process.platform === "win32") return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
