/**
 * The Agent view's lists, rendered from plain state: pending proposals with their buttons,
 * runs → tasks → steps, transcript entries. Class names and data-* attributes are the
 * stable hooks listed at the top of agent.ts.
 * Must not know: where the state comes from (agent.ts receives it).
 */

import type { FromWebview, ProposalView, RunView, StepView, TaskView } from "../src/views/agentMessages";
import type { TranscriptEntry } from "../src/runs/runStore";
import { byId, el, glyph } from "./dom";

export type Send = (message: FromWebview) => void;

export function renderProposals(proposals: ProposalView[], send: Send): void {
  byId("proposals-section").hidden = proposals.length === 0;
  byId("proposal-count").textContent = `(${proposals.length})`;
  byId("proposals").replaceChildren(
    ...proposals.map((p) =>
      el(
        "li",
        { class: "proposal", "data-proposal-id": p.id, title: `${p.title}\n${p.path}` },
        el(
          "div",
          { class: "row" },
          el("span", { class: "label" }, p.title),
          el("span", { class: "description" }, p.path),
        ),
        el(
          "div",
          { class: "actions" },
          action(send, "open", "Open", "Open the diff", p.id),
          action(send, "accept", "Accept", "Apply this edit", p.id),
          action(send, "reject", "Reject", "Reject this edit (you may give a reason)", p.id),
        ),
      ),
    ),
  );
}

function action(send: Send, kind: "open" | "accept" | "reject", text: string, title: string, id: string): HTMLButtonElement {
  const b = el("button", { type: "button", class: `${kind}${kind === "accept" ? "" : " secondary"}`, title }, text);
  b.addEventListener("click", () => send({ type: "proposal", action: kind, id }));
  return b;
}

function stepItem(step: StepView): HTMLLIElement {
  return el(
    "li",
    { class: `step status-${step.status}`, "data-step-id": step.id, title: step.tooltip },
    glyph(step.status),
    el("span", { class: "label" }, step.label),
    el("span", { class: "description" }, step.description),
  );
}

function taskItem(task: TaskView): HTMLLIElement {
  return el(
    "li",
    { class: `task status-${task.status}`, "data-task-index": String(task.index) },
    el("div", { class: "row" }, glyph(task.status), el("span", { class: "label" }, task.title)),
    task.steps.length ? el("ul", { class: "steps" }, ...task.steps.map(stepItem)) : null,
  );
}

/** The runs → tasks → steps list; remembers which runs the user opened or closed. */
export class RunList {
  /** runs whose tasks are open; the shown run opens unless the user closed it */
  private readonly expanded = new Set<string>();
  private readonly collapsed = new Set<string>();
  private runs: RunView[] = [];
  private selectedRunId: string | null = null;

  constructor(
    private readonly list: HTMLElement,
    private readonly empty: HTMLElement,
    private readonly send: Send,
  ) {}

  render(runs: RunView[], selectedRunId: string | null): void {
    this.runs = runs;
    this.selectedRunId = selectedRunId;
    this.empty.hidden = runs.length > 0;
    this.list.replaceChildren(...runs.map((r) => this.item(r, selectedRunId)));
  }

  private isExpanded(run: RunView, selectedRunId: string | null): boolean {
    if (this.collapsed.has(run.runId)) return false;
    return this.expanded.has(run.runId) || run.runId === selectedRunId;
  }

  private item(run: RunView, selectedRunId: string | null): HTMLLIElement {
    const open = this.isExpanded(run, selectedRunId);
    const classes = [
      "run",
      `status-${run.status}`,
      run.verdict ? `verdict-${run.verdict.level}` : "",
      run.runId === selectedRunId ? "selected" : "",
      open ? "expanded" : "",
    ];
    const twisty = el(
      "button",
      { type: "button", class: "twisty", "aria-expanded": String(open), title: open ? "Collapse" : "Expand" },
      open ? "▾" : "▸",
    );
    twisty.addEventListener("click", (e) => {
      e.stopPropagation();
      if (open) {
        this.collapsed.add(run.runId);
        this.expanded.delete(run.runId);
      } else {
        this.expanded.add(run.runId);
        this.collapsed.delete(run.runId);
      }
      this.render(this.runs, this.selectedRunId);
    });
    const header = el(
      "div",
      { class: "row run-header", title: headerTitle(run) },
      twisty,
      glyph(run.status),
      el("span", { class: "label goal" }, run.goal || `Run ${run.runId}`),
      run.verdict ? el("span", { class: `badge verdict-${run.verdict.level}`, title: run.verdict.text }, BADGE[run.verdict.level]) : null,
      el("span", { class: "description" }, run.description),
    );
    header.addEventListener("click", () => this.send({ type: "selectRun", runId: run.runId }));
    const body = open
      ? el(
          "div",
          { class: "run-body" },
          run.tasks.length || run.looseSteps.length
            ? el("ul", { class: "tasks" }, ...run.tasks.map(taskItem))
            : el("p", { class: "muted" }, run.status === "running" ? "Planning…" : "No tasks."),
          run.looseSteps.length ? el("ul", { class: "steps loose" }, ...run.looseSteps.map(stepItem)) : null,
          run.rules ? el("p", { class: "rules muted" }, run.rules.length ? `Rules: ${run.rules.join(", ")}` : "No rules files") : null,
          run.stream ? el("p", { class: "stream" }, el("span", { class: "stream-label" }, run.stream.label), el("span", { class: "stream-text" }, run.stream.text)) : null,
          run.verdict ? el("p", { class: `verdict verdict-${run.verdict.level}` }, run.verdict.text) : null,
          run.facts.length ? el("ul", { class: "facts" }, ...run.facts.map((f) => el("li", {}, f))) : null,
          run.summary ? el("div", { class: "summary" }, run.summary) : null,
          run.error ? el("p", { class: "error-text" }, run.error) : null,
          run.contextFill ? contextFill(run.contextFill) : null,
          run.usage ? el("p", { class: "usage muted" }, run.usage) : null,
        )
      : null;
    return el("li", { class: classes.filter(Boolean).join(" "), "data-run-id": run.runId }, header, body);
  }
}

const BADGE: Record<string, string> = { verified: "verified", unverified: "unverified", failed: "failed" };

/** The context-fill bar: how much of the model's window the last turn used. */
function contextFill(fill: { used: number; window: number }): HTMLElement {
  const pct = Math.min(100, Math.round((fill.used / Math.max(fill.window, 1)) * 100));
  const meter = el("meter", { min: "0", max: String(fill.window), value: String(fill.used), "aria-label": "Context used" });
  return el("div", { class: "context-fill", title: `context used: ${fill.used} of ${fill.window} tokens (${pct} %)` }, meter);
}

function headerTitle(run: RunView): string {
  const details = run.details.length ? `\n\n${run.details.join("\n")}` : "";
  return `${run.goal}\n${run.description}${details}${run.summary ? `\n\n${run.summary}` : ""}`;
}

export function entryItem(entry: TranscriptEntry): HTMLLIElement {
  const time = new Date(entry.at).toTimeString().slice(0, 8);
  return el(
    "li",
    { class: `entry kind-${entry.kind}` },
    el("span", { class: "time" }, time),
    el("span", { class: "text" }, entry.text),
  );
}
