/**
 * The Runs tree (Views.runs): run → tasks → steps from the run model, live. A run reads as
 * its goal with "status · steps · duration" (a finished one with DESIGN §9's verdict after
 * its status: "completed · unverified: <reason>"; its checks and usage in the tooltip), a
 * spinner while it runs, and contextValue
 * `run.<status>` (package.json's menus key on it); clicking it opens its transcript. Steps
 * are tool calls with their status and duration; the tooltip has the arguments and the
 * error or an excerpt of the output. The active run is expanded and revealed when it starts.
 * Must not know: how runs start or stop (menus call the core's commands with the element).
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { Commands, Views } from "../protocol";
import { isFinished, type RunInfo, type StepInfo, type TaskInfo } from "../runs/runStore";
import {
  runDescription,
  runIcon,
  runLabel,
  runTooltip,
  runVerdictLevel,
  stepDescription,
  stepIcon,
  stepLabel,
  stepTooltip,
  taskIcon,
} from "./format";
import { every, Throttle } from "./throttle";

/**
 * The tree's elements. Commands run from its menus receive these: a run element has `runId`
 * (agentls.cancelRun / undoRun / openTranscript accept it or a runId string).
 */
export type RunNode =
  | { kind: "run"; runId: string }
  | { kind: "task"; runId: string; index: number }
  | { kind: "step"; runId: string; stepId: string; task: number | null };

export class RunsTreeProvider implements vscode.TreeDataProvider<RunNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<RunNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly throttle = new Throttle(() => this.emitter.fire(undefined), 200);
  private readonly nodes = new Map<string, RunNode>();
  private readonly subscription: { dispose(): void };
  private readonly ticker: { dispose(): void };
  /** runs expanded once by us (when they started and had something to show) */
  private readonly revealed = new Set<string>();
  view: vscode.TreeView<RunNode> | undefined;

  constructor(private readonly ctx: AgentCtx) {
    for (const run of ctx.runs.list()) if (isFinished(run.status)) this.revealed.add(run.runId);
    // a running run's duration moves even when it is quiet
    this.ticker = every(1000, () => {
      if (this.view?.visible && ctx.runs.active()) this.throttle.schedule();
    });
    this.subscription = ctx.runs.onDidChange((run) => {
      this.throttle.schedule();
      if (isFinished(run.status)) this.throttle.flush();
      // the active run opens by itself once it has tasks or steps (the user may close it again)
      const hasChildren = run.tasks.length + run.looseSteps.length > 0;
      if (hasChildren && !isFinished(run.status) && !this.revealed.has(run.runId) && this.view?.visible) {
        this.revealed.add(run.runId);
        this.throttle.flush();
        setTimeout(() => void this.reveal(run.runId), 50);
      }
    });
  }

  dispose(): void {
    this.throttle.dispose();
    this.ticker.dispose();
    this.subscription.dispose();
    this.emitter.dispose();
  }

  /** Expand (and select) a run in the tree, if the tree is showing. */
  async reveal(runId: string): Promise<void> {
    if (!this.view?.visible) return;
    try {
      await this.view.reveal(this.node({ kind: "run", runId }), { expand: true, select: false, focus: false });
    } catch {
      // the run vanished or the tree is being rebuilt: nothing to show
    }
  }

  /** one object per id, so that reveal() and getParent() agree with what VS Code holds */
  private node<T extends RunNode>(n: T): T {
    const key = nodeId(n);
    const existing = this.nodes.get(key);
    if (existing) return existing as T;
    this.nodes.set(key, n);
    return n;
  }

  getChildren(element?: RunNode): RunNode[] {
    const runs = this.ctx.runs;
    if (!element) return runs.list().map((r) => this.node({ kind: "run", runId: r.runId }));
    const run = runs.get(element.runId);
    if (!run) return [];
    if (element.kind === "run") {
      return [
        ...run.tasks.map((t) => this.node({ kind: "task", runId: run.runId, index: t.index })),
        ...run.looseSteps.map((s) => this.node({ kind: "step", runId: run.runId, stepId: s.id, task: null })),
      ];
    }
    if (element.kind === "task") {
      const task = run.tasks.find((t) => t.index === element.index);
      return (task?.steps ?? []).map((s) => this.node({ kind: "step", runId: run.runId, stepId: s.id, task: task?.index ?? null }));
    }
    return [];
  }

  getParent(element: RunNode): RunNode | undefined {
    if (element.kind === "run") return undefined;
    if (element.kind === "task" || element.task === null) return this.node({ kind: "run", runId: element.runId });
    return this.node({ kind: "task", runId: element.runId, index: element.task });
  }

  getTreeItem(element: RunNode): vscode.TreeItem {
    const run = this.ctx.runs.get(element.runId);
    if (!run) return new vscode.TreeItem("(gone)");
    if (element.kind === "run") return this.runItem(run);
    if (element.kind === "task") {
      const task = run.tasks.find((t) => t.index === element.index);
      return task ? this.taskItem(run, task) : new vscode.TreeItem("(gone)");
    }
    const step = [...run.tasks.flatMap((t) => t.steps), ...run.looseSteps].find((s) => s.id === element.stepId);
    return step ? this.stepItem(run, step) : new vscode.TreeItem("(gone)");
  }

  private runItem(run: RunInfo): vscode.TreeItem {
    const hasChildren = run.tasks.length + run.looseSteps.length > 0;
    const active = this.ctx.runs.active()?.runId === run.runId;
    const item = new vscode.TreeItem(
      runLabel(run),
      !hasChildren
        ? vscode.TreeItemCollapsibleState.None
        : active
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed,
    );
    // VS Code keeps an item's first collapsible state per id: a run shown before it had
    // tasks gets a new id once it has some, so that "expanded" takes effect
    item.id = `${nodeId({ kind: "run", runId: run.runId })}${hasChildren ? "" : ":empty"}`;
    const now = Date.now();
    item.description = runDescription(run, now);
    item.tooltip = runTooltip(run, now);
    const level = runVerdictLevel(run);
    // an unverified completed run is not painted as a pass; a failed check is a failure
    const colour = level === "unverified" ? undefined : statusColor(level === "failed" ? "failed" : run.status);
    item.iconPath = new vscode.ThemeIcon(runIcon(run.status, level), colour);
    item.contextValue = `run.${run.status}`;
    item.command = { command: Commands.openTranscript, title: "Open Run Transcript", arguments: [run.runId] };
    return item;
  }

  private taskItem(run: RunInfo, task: TaskInfo): vscode.TreeItem {
    const item = new vscode.TreeItem(
      task.title || `Task ${task.index + 1}`,
      task.steps.length
        ? task.status === "running"
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `${nodeId({ kind: "task", runId: run.runId, index: task.index })}${task.steps.length ? "" : ":empty"}`;
    item.description = `${task.status}${task.steps.length ? ` · ${task.steps.length} step${task.steps.length === 1 ? "" : "s"}` : ""}`;
    item.tooltip = task.result ? `${task.title}\n\n${task.result}` : task.title;
    item.iconPath = new vscode.ThemeIcon(taskIcon(task.status), statusColor(task.status));
    item.contextValue = `task.${task.status}`;
    return item;
  }

  private stepItem(run: RunInfo, step: StepInfo): vscode.TreeItem {
    const item = new vscode.TreeItem(stepLabel(step), vscode.TreeItemCollapsibleState.None);
    item.id = nodeId({ kind: "step", runId: run.runId, stepId: step.id, task: step.task });
    item.description = stepDescription(step);
    item.tooltip = stepTooltip(step);
    item.iconPath = new vscode.ThemeIcon(stepIcon(step.status), statusColor(step.status));
    item.contextValue = `step.${step.status}`;
    return item;
  }
}

function nodeId(n: RunNode): string {
  if (n.kind === "run") return `run:${n.runId}`;
  if (n.kind === "task") return `task:${n.runId}:${n.index}`;
  return `step:${n.runId}:${n.stepId}`;
}

function statusColor(status: string): vscode.ThemeColor | undefined {
  switch (status) {
    case "completed":
    case "done":
    case "ok":
      return new vscode.ThemeColor("testing.iconPassed");
    case "failed":
    case "error":
      return new vscode.ThemeColor("testing.iconFailed");
    case "budget_exhausted":
      return new vscode.ThemeColor("editorWarning.foreground");
  }
  return undefined;
}

export function registerRunsTree(ctx: AgentCtx): vscode.Disposable {
  const provider = new RunsTreeProvider(ctx);
  const view = vscode.window.createTreeView(Views.runs, { treeDataProvider: provider, showCollapseAll: true });
  provider.view = view;
  return vscode.Disposable.from(provider, view);
}
