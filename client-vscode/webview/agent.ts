/**
 * The Agent view's webview script (plain DOM, no framework; bundled by esbuild into
 * dist/webview/agent.js). It renders the state the extension posts (agentMessages.ts) and
 * sends back what the user does. Every piece of text goes in through textContent: nothing the
 * agent or a goal says is ever parsed as HTML.
 *
 * Stable DOM hooks (the e2e tests rely on them — keep them):
 *   #goal                  the goal textarea (disabled in an untrusted workspace)
 *   #mode, #approval       the mode / approval selects (default: the settings)
 *   #run                   the Run button (Ctrl/Cmd+Enter in #goal does the same)
 *   #cancel                Cancel for the shown run (hidden unless that run is running)
 *   #open-transcript       opens the shown run's transcript document
 *   #banner-server         shown while the server is not running; #restart-server inside
 *   #banner-trust          shown in an untrusted workspace; #manage-trust inside
 *   #notice                the last error (e.g. a run that could not start)
 *   #proposals             list of pending proposals: li.proposal[data-proposal-id], with
 *                          button.open / button.accept / button.reject
 *   #runs                  list of runs, newest first: li.run[data-run-id].status-<status>
 *                          (.selected = the run whose transcript is shown, .expanded = open);
 *                          inside: li.task[data-task-index].status-<pending|running|done|failed|skipped>
 *                          and li.step[data-step-id].status-<running|ok|error>
 *   #transcript            ol[data-run-id] of li.entry.kind-<started|status|task|thought|
 *                          tool_call|tool_result|proposal|error|finished>
 *   body[data-server]      "running" | "stopped";  body[data-trusted] "true" | "false"
 */

import type { FromWebview, ProposalView, RunView, StepView, TaskView, ToWebview, ViewState } from "../src/views/agentMessages";
import { GoalHistory, historyKey } from "../src/views/history";
import type { TranscriptEntry } from "../src/runs/runStore";

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const send = (message: FromWebview): void => vscode.postMessage(message);

// --- tiny DOM helpers ------------------------------------------------------------------------------
type Attrs = Record<string, string | boolean | undefined>;
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "class") node.className = String(v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}
function byId<T extends HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

const STATUS_GLYPH: Record<string, string> = {
  running: "⟳",
  completed: "✓",
  done: "✓",
  ok: "✓",
  failed: "✗",
  error: "✗",
  cancelled: "⊘",
  budget_exhausted: "⚠",
  pending: "○",
  skipped: "↷",
};
function glyph(status: string): HTMLElement {
  return el("span", { class: `glyph glyph-${status}`, "aria-hidden": "true" }, STATUS_GLYPH[status] ?? "•");
}

// --- the page ---------------------------------------------------------------------------------------
function build(): void {
  const app = el(
    "div",
    { id: "app" },
    el(
      "div",
      { id: "banner-server", class: "banner", role: "alert", hidden: true },
      el("span", {}, "The agentls server is not running."),
      el("button", { id: "restart-server", type: "button", class: "secondary" }, "Restart Server"),
    ),
    el(
      "div",
      { id: "banner-trust", class: "banner", role: "alert", hidden: true },
      el("span", {}, "Agent runs are off: this workspace is not trusted (Restricted Mode)."),
      el("a", { id: "manage-trust", href: "#" }, "Manage Workspace Trust"),
    ),
    el(
      "form",
      { id: "goal-form" },
      el("textarea", {
        id: "goal",
        rows: "3",
        placeholder: "Describe a goal for the agent… (Ctrl+Enter to run, ↑ for earlier goals)",
        "aria-label": "Goal",
      }),
      el(
        "div",
        { class: "controls" },
        el("select", { id: "mode", title: "Mode: which tools the agent may use", "aria-label": "Mode" }),
        el("select", { id: "approval", title: "Approval: what happens to the agent's edits", "aria-label": "Approval" }),
        el("button", { id: "run", type: "submit", title: "Run the goal (Ctrl+Enter)" }, "Run"),
      ),
    ),
    el("div", { id: "notice", role: "status", hidden: true }),
    el(
      "section",
      { id: "proposals-section", hidden: true },
      el("h3", {}, "Pending proposals ", el("span", { id: "proposal-count", class: "count" })),
      el("ul", { id: "proposals", class: "list" }),
    ),
    el(
      "section",
      { id: "runs-section" },
      el("h3", {}, "Runs"),
      el("ul", { id: "runs", class: "list" }),
      el("p", { id: "runs-empty", class: "muted" }, "No runs yet. Describe a goal above and press Run."),
    ),
    el(
      "section",
      { id: "transcript-section", hidden: true },
      el(
        "div",
        { class: "transcript-header" },
        el("span", { id: "transcript-title", class: "title" }),
        el("button", { id: "cancel", type: "button", class: "secondary", hidden: true, title: "Cancel this run" }, "Cancel"),
        el("button", { id: "open-transcript", type: "button", class: "secondary", title: "Open the transcript as a document" }, "Open"),
      ),
      el("ol", { id: "transcript", "aria-live": "polite" }),
    ),
  );
  document.body.append(app);
}

build();
const goal = byId<HTMLTextAreaElement>("goal");
const modeSelect = byId<HTMLSelectElement>("mode");
const approvalSelect = byId<HTMLSelectElement>("approval");
const runButton = byId<HTMLButtonElement>("run");
const cancelButton = byId<HTMLButtonElement>("cancel");
const transcriptList = byId<HTMLOListElement>("transcript");

let state: ViewState | undefined;
const history = new GoalHistory();
let historyKeyText = "";
/** runs whose tasks are open; the shown run opens unless the user closed it */
const expanded = new Set<string>();
const collapsed = new Set<string>();
let modeTouched = false;
let approvalTouched = false;

interface Saved {
  goal?: string;
}
const saved = (vscode.getState() ?? {}) as Saved;
if (typeof saved.goal === "string") goal.value = saved.goal;

// --- rendering --------------------------------------------------------------------------------------
function setOptions(select: HTMLSelectElement, values: readonly string[], value: string, touched: boolean): void {
  if (select.options.length !== values.length || [...select.options].some((o, i) => o.value !== values[i])) {
    select.replaceChildren(...values.map((v) => el("option", { value: v }, v)));
  }
  if (!touched) select.value = value;
}

function renderState(s: ViewState): void {
  state = s;
  document.body.dataset.server = s.server;
  document.body.dataset.trusted = String(s.trusted);
  byId("banner-server").hidden = s.server === "running";
  byId("banner-trust").hidden = s.trusted;
  goal.disabled = !s.trusted;
  modeSelect.disabled = !s.trusted;
  approvalSelect.disabled = !s.trusted;
  runButton.disabled = !s.trusted;
  goal.title = s.trusted ? "" : "Agent runs are off in an untrusted workspace.";
  setOptions(modeSelect, s.modes, s.defaults.mode, modeTouched);
  setOptions(approvalSelect, s.approvals, s.defaults.approval, approvalTouched);
  const key = JSON.stringify(s.history);
  if (key !== historyKeyText) {
    historyKeyText = key;
    history.reset(s.history);
  }
  renderProposals(s.proposals);
  renderRuns(s.runs, s.selectedRunId);
  renderTranscriptHeader(s.runs.find((r) => r.runId === s.selectedRunId));
}

function renderProposals(proposals: ProposalView[]): void {
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
          action("open", "Open", "Open the diff", p.id),
          action("accept", "Accept", "Apply this edit", p.id),
          action("reject", "Reject", "Reject this edit (you may give a reason)", p.id),
        ),
      ),
    ),
  );
}

function action(kind: "open" | "accept" | "reject", text: string, title: string, id: string): HTMLButtonElement {
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

function isExpanded(run: RunView, selectedRunId: string | null): boolean {
  if (collapsed.has(run.runId)) return false;
  return expanded.has(run.runId) || run.runId === selectedRunId;
}

function runItem(run: RunView, selectedRunId: string | null): HTMLLIElement {
  const open = isExpanded(run, selectedRunId);
  const classes = ["run", `status-${run.status}`, run.runId === selectedRunId ? "selected" : "", open ? "expanded" : ""];
  const twisty = el(
    "button",
    { type: "button", class: "twisty", "aria-expanded": String(open), title: open ? "Collapse" : "Expand" },
    open ? "▾" : "▸",
  );
  twisty.addEventListener("click", (e) => {
    e.stopPropagation();
    if (open) {
      collapsed.add(run.runId);
      expanded.delete(run.runId);
    } else {
      expanded.add(run.runId);
      collapsed.delete(run.runId);
    }
    if (state) renderRuns(state.runs, state.selectedRunId);
  });
  const header = el(
    "div",
    { class: "row run-header", title: `${run.goal}\n${run.description}${run.summary ? `\n\n${run.summary}` : ""}` },
    twisty,
    glyph(run.status),
    el("span", { class: "label" }, run.goal || `Run ${run.runId}`),
    el("span", { class: "description" }, run.description),
  );
  header.addEventListener("click", () => send({ type: "selectRun", runId: run.runId }));
  const body = open
    ? el(
        "div",
        { class: "run-body" },
        run.tasks.length || run.looseSteps.length
          ? el("ul", { class: "tasks" }, ...run.tasks.map(taskItem))
          : el("p", { class: "muted" }, run.status === "running" ? "Planning…" : "No tasks."),
        run.looseSteps.length ? el("ul", { class: "steps loose" }, ...run.looseSteps.map(stepItem)) : null,
        run.error ? el("p", { class: "error-text" }, run.error) : null,
      )
    : null;
  return el("li", { class: classes.filter(Boolean).join(" "), "data-run-id": run.runId }, header, body);
}

function renderRuns(runs: RunView[], selectedRunId: string | null): void {
  byId("runs-empty").hidden = runs.length > 0;
  byId("runs").replaceChildren(...runs.map((r) => runItem(r, selectedRunId)));
}

function renderTranscriptHeader(run: RunView | undefined): void {
  byId("transcript-section").hidden = !run;
  if (!run) return;
  byId("transcript-title").textContent = `Transcript — ${run.goal || run.runId}`;
  byId("transcript-title").title = run.description;
  cancelButton.hidden = run.status !== "running";
  cancelButton.dataset.runId = run.runId;
}

function entryItem(entry: TranscriptEntry): HTMLLIElement {
  const time = new Date(entry.at).toTimeString().slice(0, 8);
  return el(
    "li",
    { class: `entry kind-${entry.kind}` },
    el("span", { class: "time" }, time),
    el("span", { class: "text" }, entry.text),
  );
}

/** the transcript follows new entries while the user has not scrolled up */
let stickToBottom = true;
const atBottom = (list: HTMLElement): boolean => list.scrollHeight - list.scrollTop - list.clientHeight < 24;
transcriptList.addEventListener("scroll", () => (stickToBottom = atBottom(transcriptList)));
new ResizeObserver(() => {
  if (stickToBottom) transcriptList.scrollTop = transcriptList.scrollHeight;
}).observe(transcriptList);

function renderTranscript(m: Extract<ToWebview, { type: "transcript" }>): void {
  const list = transcriptList;
  if (m.reset || transcriptList.dataset.runId !== (m.runId ?? "")) {
    transcriptList.replaceChildren();
    transcriptList.dataset.runId = m.runId ?? "";
  }
  // entries arrive in order; drop any the list already has (a repeated post)
  const have = transcriptList.children.length;
  const fresh = m.entries.slice(Math.max(0, have - m.from));
  transcriptList.append(...fresh.map(entryItem));
  if (m.reset) stickToBottom = true;
  if (stickToBottom && fresh.length) list.scrollTop = list.scrollHeight;
}

function showNotice(text: string, level: "info" | "error"): void {
  const notice = byId("notice");
  notice.textContent = text;
  notice.className = level;
  notice.hidden = !text;
}

// --- input --------------------------------------------------------------------------------------------
function submit(): void {
  const text = goal.value.trim();
  if (!text || goal.disabled) return;
  showNotice("", "info");
  send({ type: "run", goal: text, mode: modeSelect.value as ViewState["defaults"]["mode"], approval: approvalSelect.value as ViewState["defaults"]["approval"] });
}

byId<HTMLFormElement>("goal-form").addEventListener("submit", (e) => {
  e.preventDefault();
  submit();
});

goal.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    submit();
    return;
  }
  const way = historyKey(
    e.key,
    { start: goal.selectionStart, end: goal.selectionEnd, length: goal.value.length },
    e.altKey || e.ctrlKey || e.metaKey || e.shiftKey,
  );
  if (!way) return;
  const text = way === "older" ? history.older(goal.value) : history.newer();
  if (text === undefined) return;
  e.preventDefault();
  goal.value = text;
  // keep walking in the same direction with the next key press
  const at = way === "older" ? 0 : text.length;
  goal.setSelectionRange(at, at);
  vscode.setState({ goal: goal.value } satisfies Saved);
});

goal.addEventListener("input", () => vscode.setState({ goal: goal.value } satisfies Saved));
modeSelect.addEventListener("change", () => (modeTouched = true));
approvalSelect.addEventListener("change", () => (approvalTouched = true));
cancelButton.addEventListener("click", () => {
  const runId = cancelButton.dataset.runId;
  if (runId) send({ type: "cancel", runId });
});
byId("open-transcript").addEventListener("click", () => {
  const runId = state?.selectedRunId;
  if (runId) send({ type: "openTranscript", runId });
});
byId("restart-server").addEventListener("click", () => send({ type: "restartServer" }));
byId("manage-trust").addEventListener("click", (e) => {
  e.preventDefault();
  send({ type: "manageTrust" });
});

window.addEventListener("message", (event: MessageEvent<ToWebview>) => {
  const m = event.data;
  switch (m.type) {
    case "state":
      renderState(m.state);
      break;
    case "transcript":
      renderTranscript(m);
      break;
    case "notice":
      showNotice(m.text, m.level);
      break;
    case "goal":
      goal.value = m.text;
      vscode.setState({ goal: goal.value } satisfies Saved);
      if (m.focus) goal.focus();
      break;
  }
});

send({ type: "ready" });
