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
import { RequestType } from "vscode-languageclient";
import { FIXED_MENTIONS, fileMention, symbolMention } from "../mentions";
import { APPROVALS, Commands, MODES, Views } from "../protocol";
import { isFinished, type RunInfo } from "../runs/runStore";
import { SessionList } from "../runs/sessions";
import { parseFromWebview, type FromWebview, type MentionItem, type RunView, type ToWebview, type ViewState } from "./agentMessages";
import { proposalView, RunSelection, runView, TranscriptCursor, VIEW_RUN_LIMIT } from "./agentState";
import { remember } from "./history";
import { every, Throttle } from "./throttle";
import { showPage } from "./webviewPage";

export const HISTORY_KEY = "agentls.goalHistory";

interface SymbolInfo {
  name: string;
  containerName?: string;
  location?: { uri?: string };
}
const WorkspaceSymbol = new RequestType<{ query: string }, SymbolInfo[] | null, void>("workspace/symbol");

export class AgentViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly selection: RunSelection;
  private readonly cursor = new TranscriptCursor();
  private readonly throttle = new Throttle(() => this.post(), 100);
  private readonly disposables: vscode.Disposable[] = [];
  private viewDisposables: vscode.Disposable[] = [];
  /** the conversation on screen: undefined follows the newest session, null is a new one */
  private session: string | null | undefined;

  constructor(private readonly ctx: AgentCtx) {
    this.selection = new RunSelection(ctx.runs);
    for (const run of ctx.runs.list()) this.selection.observe(run);
    const seen = new Set(ctx.runs.list().map((r) => r.runId));
    this.disposables.push(
      ctx.runs.onDidChange((run: RunInfo) => {
        this.selection.observe(run);
        if (!seen.has(run.runId)) {
          // a new run takes the view to its conversation
          seen.add(run.runId);
          if (!isFinished(run.status)) this.session = SessionList.keyOf(run);
        } else if (run.sessionId && this.session === `run:${run.runId}`) {
          this.session = run.sessionId;
        }
        this.schedule();
      }),
      ctx.onDidChangeSessions(() => this.schedule()),
      ctx.editorContext.onDidChange(() => this.schedule()),
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

  /** The session on screen: the picked one, else the newest (null: a new session). */
  private currentSession(): string | null {
    if (this.session !== undefined) return this.session;
    return this.ctx.sessions.list()[0]?.sessionId ?? null;
  }

  state(): ViewState {
    const config = this.ctx.config();
    const now = Date.now();
    const sessionId = this.currentSession();
    const session = sessionId ? this.ctx.sessions.get(sessionId) : undefined;
    const runs: RunView[] = [];
    for (const runId of session?.runs ?? []) {
      const run = this.ctx.runs.get(runId);
      if (run) runs.push(runView(run, now));
      else {
        const record = this.ctx.sessions.record(runId);
        if (record) runs.push(recordView(record));
      }
    }
    const shown = runs.length ? runs[runs.length - 1] : undefined;
    const picked = this.selection.current();
    const selected = picked && runs.some((r) => r.runId === picked.runId) ? picked.runId : shown?.runId ?? null;
    const editor = this.ctx.editorContext.current();
    return {
      server: this.ctx.serverRunning ? "running" : "stopped",
      trusted: this.ctx.trusted,
      defaults: { mode: config.mode, approval: config.approval },
      modes: MODES,
      approvals: APPROVALS,
      history: this.history(),
      runs: runs.slice(-VIEW_RUN_LIMIT),
      proposals: this.ctx.proposals.pending().map((p) => proposalView(p, relativePath)),
      selectedRunId: selected,
      model: config.model,
      sessions: this.ctx.sessions.list().map((s) => ({
        sessionId: s.sessionId,
        title: s.runCount && s.runCount > 1 ? `${s.title} (${s.runCount} runs)` : s.title,
        continuable: s.continuable,
      })),
      selectedSessionId: sessionId,
      context: editor ? { label: editor.label } : null,
    };
  }

  private post(): void {
    const view = this.view;
    if (!view) return;
    const state = this.state();
    void view.webview.postMessage({ type: "state", state } satisfies ToWebview);
    const delta = this.cursor.next(state.selectedRunId ? this.ctx.runs.get(state.selectedRunId) : undefined);
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
          return await this.run(message.goal, message.mode, message.approval, message.sessionId, message.withEditor);
        case "selectSession":
          this.session = message.sessionId;
          this.throttle.schedule();
          return;
        case "newSession":
          this.session = null;
          this.throttle.schedule();
          return;
        case "removeContext":
          this.ctx.editorContext.remove();
          return;
        case "walkthrough":
          await vscode.commands.executeCommand("workbench.action.openWalkthrough", `${this.ctx.extension.extension.id}#agentls.start`, false);
          return;
        case "mentions":
          this.send({ type: "mentions", seq: message.seq, items: await this.mentions(message.query) });
          return;
        case "cancel":
          return await this.ctx.cancelRun(message.runId);
        case "selectRun":
          this.selection.pick(message.runId);
          this.throttle.schedule();
          return;
        case "openTranscript":
          await vscode.commands.executeCommand(Commands.openTranscript, message.runId, true);
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

  /** Completions of `@query`: the fixed kinds, workspace files, the index's symbols. */
  private async mentions(query: string): Promise<MentionItem[]> {
    const items: MentionItem[] = FIXED_MENTIONS.filter((m) => m.insert.slice(1).startsWith(query.toLowerCase())).map((m) => ({ ...m }));
    const symbolOnly = query.startsWith("symbol:");
    const name = symbolOnly ? query.slice(7) : query;
    if (!symbolOnly) {
      const safe = query.replace(/[^\w./-]/g, "");
      const files = await vscode.workspace.findFiles(`**/*${safe}*`, "{**/node_modules/**,**/.git/**,**/.agentls/**,**/.venv/**,**/__pycache__/**}", 40);
      const rel = files.map((f) => vscode.workspace.asRelativePath(f, false)).sort((a, b) => a.length - b.length || a.localeCompare(b));
      items.push(...rel.slice(0, 15).map((r) => ({ insert: fileMention(r), detail: "file" })));
    }
    if (name.length >= (symbolOnly ? 0 : 2) && this.ctx.serverRunning) {
      try {
        const symbols = (await this.ctx.request(WorkspaceSymbol, { query: name })) ?? [];
        const seen = new Set<string>();
        for (const sym of symbols.slice(0, 40)) {
          if (seen.has(sym.name)) continue;
          seen.add(sym.name);
          const where = sym.location?.uri ? relativePath(sym.location.uri) : "";
          items.push({ insert: symbolMention(sym.name), detail: `symbol${sym.containerName ? ` in ${sym.containerName}` : ""}${where ? ` · ${where}` : ""}` });
          if (seen.size >= 10) break;
        }
      } catch (err) {
        this.ctx.log.debug(`workspace/symbol for @${query}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return items.slice(0, 25);
  }

  private async run(
    goal: string,
    mode: ViewState["defaults"]["mode"],
    approval: ViewState["defaults"]["approval"],
    sessionId: string | null,
    withEditor: boolean,
  ): Promise<void> {
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
      runId = await this.ctx.startRun(text, { mode, approval, sessionId: sessionId ?? undefined, withEditor });
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

/** A run of an earlier window, from its record (the session's conversation survives a reload). */
function recordView(r: { runId: string; goal: string; status: RunInfo["status"]; summary?: string | null; error?: string | null }): RunView {
  return {
    runId: r.runId,
    goal: r.goal,
    status: r.status === "running" ? "cancelled" : r.status,
    description: r.status === "running" ? "ended with the window" : r.status.replace("_", " "),
    tasks: [],
    looseSteps: [],
    summary: r.summary ?? null,
    error: r.error && r.error !== r.status ? r.error : null,
    verdict: null,
    details: [],
    usage: "",
    contextFill: null,
    rules: null,
    stream: null,
    facts: [],
  };
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
