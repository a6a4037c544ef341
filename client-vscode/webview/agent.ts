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
 *                          (.selected = the run whose transcript is shown, .expanded = open;
 *                          .verdict-<verified|unverified|failed> = DESIGN §9's verdict, when
 *                          the server gave one; an open run shows it in p.verdict, its usage in p.usage);
 *                          inside: li.task[data-task-index].status-<pending|running|done|failed|skipped>
 *                          and li.step[data-step-id].status-<running|ok|error>
 *   #transcript            ol[data-run-id] of li.entry.kind-<started|status|task|thought|
 *                          tool_call|tool_result|proposal|error|finished>
 *   body[data-server]      "running" | "stopped";  body[data-trusted] "true" | "false"
 */

import type { FromWebview, RunView, ToWebview, ViewState } from "../src/views/agentMessages";
import { GoalHistory, historyKey } from "../src/views/history";
import { entryItem, renderProposals, RunList } from "./agentLists";
import { byId, el } from "./dom";

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const send = (message: FromWebview): void => vscode.postMessage(message);

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
const runList = new RunList(byId("runs"), byId("runs-empty"), send);
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
  renderProposals(s.proposals, send);
  runList.render(s.runs, s.selectedRunId);
  renderTranscriptHeader(s.runs.find((r) => r.runId === s.selectedRunId));
}

function renderTranscriptHeader(run: RunView | undefined): void {
  byId("transcript-section").hidden = !run;
  if (!run) return;
  byId("transcript-title").textContent = `Transcript — ${run.goal || run.runId}`;
  byId("transcript-title").title = run.description;
  cancelButton.hidden = run.status !== "running";
  cancelButton.dataset.runId = run.runId;
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
