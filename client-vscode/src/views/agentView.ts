/**
 * The Agent view (Views.agent): a webview in the Agent side bar with the goal box (history,
 * mode and approval), the pending proposals, the runs with their tasks and tool calls, and
 * the transcript of the selected or active run, streamed as it happens. The extension side
 * builds plain state (agentState.ts), posts it throttled (≤ 10/s), and acts on the webview's
 * messages (agentMessages.ts) through the context: startRun, cancelRun, proposals, restart.
 * Must not know: how runs start or proposals apply (the core does that behind AgentCtx).
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { APPROVALS, Commands, MODES, Views } from "../protocol";
import type { RunInfo } from "../runs/runStore";
import { parseFromWebview, type FromWebview, type ToWebview, type ViewState } from "./agentMessages";
import { proposalView, RunSelection, runView, TranscriptCursor, VIEW_RUN_LIMIT } from "./agentState";
import { remember } from "./history";
import { every, Throttle } from "./throttle";
import { showPage } from "./webviewPage";

export const HISTORY_KEY = "agentls.goalHistory";

export class AgentViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly selection: RunSelection;
  private readonly cursor = new TranscriptCursor();
  private readonly throttle = new Throttle(() => this.post(), 100);
  private readonly disposables: vscode.Disposable[] = [];
  private viewDisposables: vscode.Disposable[] = [];

  constructor(private readonly ctx: AgentCtx) {
    this.selection = new RunSelection(ctx.runs);
    for (const run of ctx.runs.list()) this.selection.observe(run);
    this.disposables.push(
      ctx.runs.onDidChange((run: RunInfo) => {
        this.selection.observe(run);
        this.schedule();
      }),
      ctx.proposals.onDidChange(() => this.schedule()),
      ctx.onDidChangeServer(() => this.schedule()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.schedule()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("agentls")) this.schedule();
      }),
      every(1000, () => {
        // a running run's duration moves even when it is quiet
        if (ctx.runs.active()) this.schedule();
      }),
    );
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    showPage(view.webview, this.ctx.extension.extensionUri, { title: "Agent", script: "agent.js", style: "agent.css" });
    for (const d of this.viewDisposables) d.dispose();
    this.viewDisposables = [
      view.webview.onDidReceiveMessage((raw: unknown) => {
        const message = parseFromWebview(raw);
        if (message) void this.onMessage(message);
      }),
      view.onDidChangeVisibility(() => {
        if (view.visible) this.schedule();
      }),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
        for (const d of this.viewDisposables) d.dispose();
        this.viewDisposables = [];
      }),
    ];
    this.cursor.restart();
  }

  dispose(): void {
    this.throttle.dispose();
    for (const d of [...this.disposables, ...this.viewDisposables]) d.dispose();
  }

  private schedule(): void {
    if (this.view?.visible) this.throttle.schedule();
  }

  private history(): string[] {
    return this.ctx.extension.workspaceState.get<string[]>(HISTORY_KEY, []);
  }

  state(): ViewState {
    const config = this.ctx.config();
    const now = Date.now();
    const selected = this.selection.current();
    const runs = this.ctx.runs.list().slice(0, VIEW_RUN_LIMIT);
    // the run on screen stays listed even when it is older than the newest twenty
    if (selected && !runs.includes(selected)) runs.push(selected);
    return {
      server: this.ctx.serverRunning ? "running" : "stopped",
      trusted: this.ctx.trusted,
      defaults: { mode: config.mode, approval: config.approval },
      modes: MODES,
      approvals: APPROVALS,
      history: this.history(),
      runs: runs.map((r) => runView(r, now)),
      proposals: this.ctx.proposals.pending().map((p) => proposalView(p, relativePath)),
      selectedRunId: selected?.runId ?? null,
    };
  }

  private post(): void {
    const view = this.view;
    if (!view) return;
    const state = this.state();
    void view.webview.postMessage({ type: "state", state } satisfies ToWebview);
    const delta = this.cursor.next(this.selection.current());
    if (delta) void view.webview.postMessage({ type: "transcript", ...delta } satisfies ToWebview);
  }

  private send(message: ToWebview): void {
    void this.view?.webview.postMessage(message);
  }

  private async onMessage(message: FromWebview): Promise<void> {
    try {
      switch (message.type) {
        case "ready":
          this.cursor.restart();
          this.throttle.schedule();
          this.throttle.flush();
          return;
        case "run":
          return await this.run(message.goal, message.mode, message.approval);
        case "cancel":
          return await this.ctx.cancelRun(message.runId);
        case "selectRun":
          this.selection.pick(message.runId);
          this.throttle.schedule();
          return;
        case "openTranscript":
          await vscode.commands.executeCommand(Commands.openTranscript, message.runId);
          return;
        case "proposal":
          if (message.action === "open") return await this.ctx.proposals.open(message.id);
          if (message.action === "accept") return await this.ctx.proposals.accept(message.id);
          return await this.ctx.proposals.reject(message.id);
        case "restartServer":
          await vscode.commands.executeCommand(Commands.restartServer);
          return;
        case "manageTrust":
          await vscode.commands.executeCommand("workbench.trust.manage");
          return;
      }
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      this.ctx.log.error(`Agent view: ${message.type} failed: ${text}`);
      this.send({ type: "notice", text, level: "error" });
    }
  }

  private async run(goal: string, mode: ViewState["defaults"]["mode"], approval: ViewState["defaults"]["approval"]): Promise<void> {
    const text = goal.trim();
    if (!text) return;
    if (!this.ctx.trusted) {
      this.send({ type: "notice", text: "This workspace is not trusted: agent runs are off.", level: "error" });
      return;
    }
    await this.ctx.extension.workspaceState.update(HISTORY_KEY, remember(this.history(), text));
    this.send({ type: "goal", text: "", focus: false });
    this.throttle.schedule();
    let runId: string | undefined;
    try {
      runId = await this.ctx.startRun(text, { mode, approval });
    } catch (err) {
      this.send({ type: "goal", text, focus: true });
      throw err;
    }
    if (runId) {
      this.selection.pick(runId);
      this.throttle.schedule();
    } else {
      this.send({ type: "goal", text, focus: true });
    }
  }
}

function relativePath(uri: string): string {
  try {
    return vscode.workspace.asRelativePath(vscode.Uri.parse(uri), false);
  } catch {
    return uri;
  }
}

export function registerAgentView(ctx: AgentCtx): vscode.Disposable {
  const provider = new AgentViewProvider(ctx);
  return vscode.Disposable.from(
    provider,
    vscode.window.registerWebviewViewProvider(Views.agent, provider, { webviewOptions: { retainContextWhenHidden: true } }),
  );
}
