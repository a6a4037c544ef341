/**
 * The AgentCtx implementation: the one object every module is handed. It joins the server
 * (server/supervisor.ts: start, restart, one clear message on failure), the RunStore fed by
 * `agent/event`, the proposals fed by `agent/proposal`, typed requests, and starting and
 * cancelling runs (trust checked, defaults from the settings). Starting is never awaited by
 * activate(): requests wait for it instead. Settings the server reads only at start restart it.
 * Must not know: views, commands, the status bar.
 */

import * as vscode from "vscode";
import type { LanguageClient, RequestType } from "vscode-languageclient/node";
import { needsRestart, readConfig, serverSettings } from "./config";
import type { AgentConfig, AgentCtx, RunOptions } from "./ctx";
import { errorMessage } from "./log";
import { ProposalManager } from "./proposals/manager";
import { EditorContext } from "./editorContext";
import { mentionsIn } from "./mentions";
import {
  AgentCancel,
  AgentEventNotification,
  AgentPlan,
  AgentProposalNotification,
  AgentRun,
  AgentSessions,
  SECTION,
  type AgentRunParams,
} from "./protocol";
import { reviewPlan } from "./plan";
import { isFinished, RunStore } from "./runs/runStore";
import { LOCAL_PREFIX, SessionList, type SavedSessions } from "./runs/sessions";
import { ServerSupervisor, type ServerState } from "./server/supervisor";
import { showUntrusted } from "./trust";

const SESSIONS_KEY = "agentls.sessions";

export class AgentContext implements AgentCtx, vscode.Disposable {
  readonly runs = new RunStore();
  readonly proposals: ProposalManager;
  readonly sessions: SessionList;
  readonly editorContext = new EditorContext();
  private readonly sessionsChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeSessions = this.sessionsChanged.event;
  private readonly server: ServerSupervisor;
  readonly onDidChangeServer: vscode.Event<ServerState>;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly extension: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    this.server = new ServerSupervisor({
      log,
      secrets: extension.secrets,
      config: () => this.config(),
      trusted: () => this.trusted,
      settings: () => serverSettings(this.config(), this.trusted),
      onRunCommand: (params) => this.runFromCommand(params),
      attach: (client) => this.attach(client),
      stopped: () => {
        this.runs.serverStopped("the agentls server stopped, so the run ended");
        this.proposals.clear();
      },
    });
    this.onDidChangeServer = this.server.onDidChange;
    this.proposals = new ProposalManager(this, () => this.server.current);
    this.disposables.push(this.proposals, this.editorContext, this.sessionsChanged);
    this.sessions = new SessionList(extension.workspaceState.get<SavedSessions>(SESSIONS_KEY));
    const runSub = this.runs.onDidChange((run) => {
      if (!this.sessions.observe(run)) return;
      void extension.workspaceState.update(SESSIONS_KEY, this.sessions.toJSON());
      this.sessionsChanged.fire();
      if (isFinished(run.status)) void this.refreshSessions();
    });
    this.disposables.push({ dispose: () => runSub.dispose() });
    this.disposables.push(this.server.onDidChange((state) => state === "running" && void this.refreshSessions()));
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
    return this.server.isRunning;
  }

  /** Why the server is not running, when it failed to start (for the status bar). */
  get serverFailure(): string | undefined {
    return this.server.failure;
  }

  config(): AgentConfig {
    return readConfig(vscode.workspace.getConfiguration(SECTION), this.trusted).config;
  }

  private logProblems(): void {
    for (const problem of readConfig(vscode.workspace.getConfiguration(SECTION), this.trusted).problems) this.log.warn(problem);
  }

  /** Start the server (never rejects; a failure is shown once). */
  start(): Promise<void> {
    this.logProblems();
    return this.server.start();
  }

  restartServer(): Promise<void> {
    this.logProblems();
    return this.server.restart();
  }

  async request<P, R>(type: RequestType<P, R, void>, params: P): Promise<R> {
    const client = await this.server.ready();
    return client.sendRequest<R>(type.method, params);
  }

  /** What the server tells the editor of runs and proposals. */
  private attach(client: LanguageClient): void {
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
    client.onRequest(AgentPlan, (params) => reviewPlan(this, params));
  }

  async refreshSessions(): Promise<void> {
    if (!this.server.isRunning) return;
    try {
      const { sessions } = await this.request(AgentSessions, {});
      if (!Array.isArray(sessions)) return;
      this.sessions.fromServer(sessions);
      await this.extension.workspaceState.update(SESSIONS_KEY, this.sessions.toJSON());
      this.sessionsChanged.fire();
    } catch (err) {
      this.log.debug(`agent/sessions: ${errorMessage(err)} (a server without sessions)`);
    }
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
    if (options.sessionId && !options.sessionId.startsWith(LOCAL_PREFIX)) params.sessionId = options.sessionId;
    const editor = options.withEditor === false ? undefined : this.editorContext.current();
    const context = options.context ?? (editor ? { uri: editor.uri, ...(editor.range ? { range: editor.range } : {}) } : undefined);
    const mentions = mentionsIn(goal);
    // mentions go with the editor's context (it needs a uri); the goal's own @tokens say them too
    if (context) params.context = mentions.length ? { ...context, mentions } : context;
    try {
      const { runId, sessionId } = await this.request(AgentRun, params);
      this.log.info(
        `run ${runId} started${sessionId ? ` in session ${sessionId}` : ""} (${params.mode}, approval ${params.approval}, ≤${params.maxSteps} steps)` +
          `${params.context?.uri ? ` with ${vscode.workspace.asRelativePath(vscode.Uri.parse(params.context.uri))}${params.context.range ? ` lines ${params.context.range.start.line + 1}-${params.context.range.end.line + 1}` : ""}` : ""}: ${goal}`,
      );
      this.runs.started(runId, goal, typeof sessionId === "string" ? sessionId : undefined);
      return runId;
    } catch (err) {
      const message = `agentls: the run could not start: ${errorMessage(err)}`;
      this.log.error(message);
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
  }

  /** The code actions' `agentls.agent.run {goal, context}` command. */
  private async runFromCommand(params: AgentRunParams): Promise<{ runId: string; sessionId?: string } | undefined> {
    const runId = await this.startRun(typeof params.goal === "string" ? params.goal : "", {
      mode: params.mode,
      approval: params.approval,
      maxSteps: params.maxSteps,
      context: params.context,
      sessionId: typeof params.sessionId === "string" ? params.sessionId : undefined,
    });
    // answered as agent/run is (the server's own command answers {runId, sessionId})
    const sessionId = runId ? this.runs.get(runId)?.sessionId : undefined;
    return runId ? { runId, ...(sessionId ? { sessionId } : {}) } : undefined;
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
    await this.server.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
