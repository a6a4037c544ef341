/**
 * The language server's lifecycle: which command starts it (resolve.ts), its environment
 * (the API key from the secret storage under `agentls.apiKeyEnv`), start, stop and restart
 * one at a time, and ONE clear error message when it cannot start or keeps crashing (with
 * what to do: the setting, the output, a restart). Starts and stops are bounded by
 * timeouts, so nothing waits forever on a silent server.
 * Must not know: runs, proposals, commands, views (the context attaches its handlers).
 */

import * as fs from "fs";
import * as vscode from "vscode";
import { State, type LanguageClient } from "vscode-languageclient/node";
import { createClient, type ClientSetup } from "../client";
import { serverEnvironment } from "../config";
import type { AgentConfig } from "../ctx";
import { errorMessage } from "../log";
import { SECRET_API_KEY } from "../protocol";
import { installHint, resolveServerCommand, SETTING_KEY } from "./resolve";

export type ServerState = "running" | "stopped";

export interface SupervisorHooks {
  readonly log: vscode.LogOutputChannel;
  readonly secrets: vscode.SecretStorage;
  config(): AgentConfig;
  trusted(): boolean;
  settings: ClientSetup["settings"];
  onRunCommand: ClientSetup["onRunCommand"];
  /** register the notification handlers on a new client (before it starts) */
  attach(client: LanguageClient): void;
  /** the server went away: what it was doing is over */
  stopped(): void;
}

/** How long the server may take to answer `initialize` before the start counts as failed. */
const START_TIMEOUT_MS = 60_000;
const OPEN_SETTING = "Open Setting";
const SHOW_OUTPUT = "Show Output";
const RESTART = "Restart Server";

export class ServerSupervisor implements vscode.Disposable {
  private client: LanguageClient | undefined;
  /** starts and restarts run one after the other on this chain */
  private queue: Promise<void> = Promise.resolve();
  private starting: Promise<void> | undefined;
  /** the client whose start() is under way (its failures are reported by the start) */
  private inStart: LanguageClient | undefined;
  private running = false;
  private failureText: string | undefined;
  private fatalShown = false;
  private readonly changed = new vscode.EventEmitter<ServerState>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly hooks: SupervisorHooks) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** Why the server is not running, when it failed (for the status bar). */
  get failure(): string | undefined {
    return this.failureText;
  }

  /** The running client, for the protocol converters (undefined while stopped). */
  get current(): LanguageClient | undefined {
    return this.client;
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  restart(): Promise<void> {
    this.hooks.log.info("restarting the server");
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  /** The running client, after any start under way; a readable Error when there is none. */
  async ready(): Promise<LanguageClient> {
    if (this.starting) await withTimeout(this.starting, START_TIMEOUT_MS, "").catch(() => undefined);
    if (this.client && this.running) return this.client;
    throw new Error(
      this.failureText
        ? `the agentls server is not running: ${this.failureText}`
        : "the agentls server is not running (Agent: Restart Server starts it; Agent: Show Server Output shows why it stopped)",
    );
  }

  async dispose(): Promise<void> {
    await withTimeout(this.queue, 2000, "").catch(() => undefined);
    await this.doStop();
    this.changed.dispose();
  }

  /** Run a start or restart after the ones before it; ready() waits for the latest. */
  private enqueue(op: () => Promise<void>): Promise<void> {
    const run = this.queue
      .then(op)
      .catch((err: unknown) => this.hooks.log.error(`the server could not be (re)started: ${errorMessage(err)}`));
    this.queue = run;
    this.starting = run;
    void run.finally(() => {
      if (this.starting === run) this.starting = undefined;
    });
    return run;
  }

  private async doStart(): Promise<void> {
    const { log } = this.hooks;
    this.failureText = undefined;
    this.fatalShown = false;
    const config = this.hooks.config();
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const resolution = resolveServerCommand({
      setting: config.serverCommand,
      folders,
      platform: process.platform,
      trusted: this.hooks.trusted(),
      env: process.env,
      isExecutable,
    });
    if (!resolution.ok) return this.fatal(resolution.message);
    let apiKey: string | undefined;
    try {
      apiKey = await this.hooks.secrets.get(SECRET_API_KEY);
    } catch (err) {
      log.warn(`could not read the API key from the secret storage: ${errorMessage(err)}`);
    }
    const line = [resolution.command, ...resolution.args].join(" ");
    log.info(
      `starting the server: ${line} (${resolution.description})` +
        (this.hooks.trusted() ? "" : " — untrusted workspace: read-only mode, no agent runs") +
        (apiKey ? `; API key from the secret storage in $${config.apiKeyEnv}` : ""),
    );
    const client = createClient({
      command: resolution.command,
      args: resolution.args,
      cwd: folders[0],
      env: serverEnvironment(process.env, config.apiKeyEnv, apiKey),
      log,
      settings: this.hooks.settings,
      trusted: () => this.hooks.trusted(),
      onRunCommand: this.hooks.onRunCommand,
      onFatal: (message) => {
        // while starting, the start itself reports the failure (once)
        if (this.client === client && this.inStart !== client) this.fatal(message, RESTART);
      },
    });
    this.hooks.attach(client);
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
      log.info(`the server is running (initialize answered in ${Date.now() - started} ms)`);
      this.setRunning(true);
    } catch (err) {
      const why = errorMessage(err);
      const reason = /EPIPE|ECONNRESET|closed|exited/i.test(why) ? `exited before it answered initialize (${why})` : `failed: ${why}`;
      this.fatal(
        `agentls: the language server did not start: \`${line}\` ${reason}. Its messages are in Agent: Show Server Output. ` +
          installHint(process.platform),
      );
      this.client = undefined;
      await withTimeout(client.dispose(2000), 3000, "").catch(() => undefined); // it never ran, or does not stop
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
        this.hooks.log.warn(`stopping the server: ${errorMessage(err)}`);
      }
      await withTimeout(client.dispose(1000), 2000, "").catch(() => undefined); // already gone
    }
    this.setRunning(false);
  }

  private setRunning(running: boolean): void {
    if (this.running === running) return;
    this.running = running;
    if (!running) this.hooks.stopped();
    this.changed.fire(running ? "running" : "stopped");
  }

  /** One error notification per start attempt: the message and what to do. */
  private fatal(message: string, first: typeof OPEN_SETTING | typeof RESTART = OPEN_SETTING): void {
    this.failureText = message;
    this.hooks.log.error(message);
    this.changed.fire("stopped");
    if (this.fatalShown) return;
    this.fatalShown = true;
    void vscode.window.showErrorMessage(message, first, SHOW_OUTPUT).then((choice) => {
      if (choice === OPEN_SETTING) void vscode.commands.executeCommand("workbench.action.openSettings", SETTING_KEY);
      else if (choice === RESTART) void this.restart();
      else if (choice === SHOW_OUTPUT) this.hooks.log.show(true);
    });
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== "win32") fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
