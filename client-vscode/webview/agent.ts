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
 *   #session               select of the sessions (newest first); #new-session starts a new one
 *   #model-name            the configured model
 *   #context-chip          the editor's file/selection that goes with the goal; #context-remove (×)
 *   #mentions              the `@` completion list: li.mention[data-insert] (.active = Enter picks it)
 *   a run's li also has    p.rules, div.context-fill (meter), p.stream (a turn being written),
 *                          ul.facts, div.summary
 */

import type { FromWebview, RunView, ToWebview, ViewState } from "../src/views/agentMessages";
import { completeMention, mentionQuery } from "../src/mentions";
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
      "div",
      { id: "session-bar", class: "controls" },
      el("select", { id: "session", title: "The conversation: its goals and runs", "aria-label": "Session" }),
      el("button", { id: "new-session", type: "button", class: "secondary", title: "Start a new session" }, "New"),
      el("span", { id: "model-name", class: "model muted", title: "The configured model (agentls.model)" }),
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
      el(
        "p",
        { id: "runs-empty", class: "muted" },
        "No runs yet. Describe a goal below and press Run — the open file and its selection go with it. New here? ",
        el("a", { id: "open-walkthrough", href: "#" }, "Get started"),
      ),
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
    el(
      "form",
      { id: "goal-form" },
      el(
        "div",
        { id: "context-row" },
        el(
          "span",
          { id: "context-chip", class: "chip", hidden: true, title: "This file and selection go with the goal" },
          el("span", { id: "context-label" }),
          el("button", { id: "context-remove", type: "button", class: "chip-remove", title: "Leave it out", "aria-label": "Remove context" }, "×"),
        ),
      ),
      el("textarea", {
        id: "goal",
        rows: "3",
        placeholder: "Describe a goal, or a follow-up… (@ to mention a file or symbol, Ctrl+Enter to run, ↑ for earlier goals)",
        "aria-label": "Goal",
      }),
      el("ul", { id: "mentions", class: "mentions", role: "listbox", hidden: true }),
      el(
        "div",
        { class: "controls" },
        el("select", { id: "mode", title: "Mode: which tools the agent may use", "aria-label": "Mode" }),
        el("select", { id: "approval", title: "Approval: what happens to the agent's edits", "aria-label": "Approval" }),
        el("button", { id: "run", type: "submit", title: "Run the goal (Ctrl+Enter)" }, "Run"),
      ),
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
const sessionSelect = byId<HTMLSelectElement>("session");
const mentionList = byId<HTMLUListElement>("mentions");

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
  renderSessions(s);
  byId("model-name").textContent = `model: ${s.model}`;
  byId("context-chip").hidden = !s.context;
  byId("context-label").textContent = s.context ? s.context.label : "";
  renderTranscriptHeader(s.runs.find((r) => r.runId === s.selectedRunId));
}

function renderSessions(s: ViewState): void {
  const options = s.sessions.map((x) => el("option", { value: x.sessionId }, x.title.length > 60 ? `${x.title.slice(0, 59)}…` : x.title));
  const fresh = el("option", { value: "" }, "New session");
  sessionSelect.replaceChildren(...(s.selectedSessionId === null ? [fresh] : []), ...options);
  sessionSelect.value = s.selectedSessionId ?? "";
  const current = s.sessions.find((x) => x.sessionId === s.selectedSessionId);
  byId("run").textContent = current && current.continuable ? "Send" : "Run";
}

function renderTranscriptHeader(run: RunView | undefined): void {
  byId("transcript-section").hidden = !run;
  if (!run) return;
  // the goal is the run's own header above: said once
  byId("transcript-title").textContent = "Transcript";
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
  // "Goal: …" repeats the run's header: kept in the list (the slice arithmetic counts it), not shown
  for (const li of transcriptList.querySelectorAll<HTMLElement>("li.kind-started")) li.hidden = true;
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
  const current = state?.sessions.find((x) => x.sessionId === state?.selectedSessionId);
  send({
    type: "run",
    goal: text,
    mode: modeSelect.value as ViewState["defaults"]["mode"],
    approval: approvalSelect.value as ViewState["defaults"]["approval"],
    sessionId: current && current.continuable ? current.sessionId : null,
    withEditor: !byId("context-chip").hidden,
  });
  hideMentions();
}

byId<HTMLFormElement>("goal-form").addEventListener("submit", (e) => {
  e.preventDefault();
  submit();
});

// --- @ mentions ---------------------------------------------------------------------------------------
let mentionSeq = 0;
let mentionAt: { start: number; query: string } | undefined;
let activeMention = 0;

function hideMentions(): void {
  mentionList.hidden = true;
  mentionList.replaceChildren();
  mentionAt = undefined;
}

function pickMention(insert: string): void {
  if (!mentionAt) return;
  const cursor = goal.selectionStart;
  const done = completeMention(goal.value, mentionAt.start, cursor, insert);
  goal.value = done.text;
  goal.setSelectionRange(done.cursor, done.cursor);
  vscode.setState({ goal: goal.value } satisfies Saved);
  hideMentions();
  goal.focus();
  if (insert.endsWith(":")) queryMentions();
}

function markActive(): void {
  [...mentionList.children].forEach((li, i) => li.classList.toggle("active", i === activeMention));
}

function queryMentions(): void {
  const at = mentionQuery(goal.value, goal.selectionStart);
  if (!at || goal.selectionStart !== goal.selectionEnd) return hideMentions();
  mentionAt = at;
  send({ type: "mentions", seq: ++mentionSeq, query: at.query });
}

function showMentions(m: Extract<ToWebview, { type: "mentions" }>): void {
  if (m.seq !== mentionSeq || !mentionAt) return;
  activeMention = 0;
  mentionList.replaceChildren(
    ...m.items.map((item) => {
      const li = el("li", { class: "mention", role: "option", "data-insert": item.insert }, el("span", { class: "label" }, item.insert), el("span", { class: "description" }, item.detail));
      li.addEventListener("mousedown", (e) => {
        e.preventDefault();
        pickMention(item.insert);
      });
      return li;
    }),
  );
  mentionList.hidden = m.items.length === 0;
  markActive();
}

goal.addEventListener("keydown", (e) => {
  if (!mentionList.hidden) {
    const count = mentionList.children.length;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      activeMention = (activeMention + (e.key === "ArrowDown" ? 1 : count - 1)) % count;
      markActive();
      return;
    }
    if ((e.key === "Enter" && !e.ctrlKey && !e.metaKey) || e.key === "Tab") {
      e.preventDefault();
      const li = mentionList.children[activeMention] as HTMLElement | undefined;
      if (li?.dataset.insert) pickMention(li.dataset.insert);
      return;
    }
    if (e.key === "Escape") {
      e.preventDefault();
      hideMentions();
      return;
    }
  }
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

goal.addEventListener("input", () => {
  vscode.setState({ goal: goal.value } satisfies Saved);
  queryMentions();
});
goal.addEventListener("blur", () => setTimeout(hideMentions, 150));
sessionSelect.addEventListener("change", () => {
  if (sessionSelect.value) send({ type: "selectSession", sessionId: sessionSelect.value });
  else send({ type: "newSession" });
});
byId("new-session").addEventListener("click", () => {
  send({ type: "newSession" });
  goal.focus();
});
byId("context-remove").addEventListener("click", () => send({ type: "removeContext" }));
byId("open-walkthrough").addEventListener("click", (e) => {
  e.preventDefault();
  send({ type: "walkthrough" });
});
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
    case "mentions":
      showMentions(m);
      break;
    case "goal":
      goal.value = m.text;
      vscode.setState({ goal: goal.value } satisfies Saved);
      if (m.focus) goal.focus();
      break;
  }
});

send({ type: "ready" });
