/**
 * The plan review panel (src/plan.ts): the tasks as an editable list, Approve and Reject.
 * Stable DOM hooks (e2e): #plan-goal, #tasks li textarea.task, #add-task, li button.remove,
 * #approve, #reject, #comment.
 */

import { byId, el } from "./dom";

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();

document.body.append(
  el(
    "div",
    { id: "app", class: "plan" },
    el("h2", {}, "The agent's plan"),
    el("p", { id: "plan-goal", class: "muted" }),
    el("p", { class: "muted" }, "Change, add or remove tasks, then approve. The run waits for you."),
    el("ol", { id: "tasks", class: "plan-tasks" }),
    el("button", { id: "add-task", type: "button", class: "secondary" }, "+ Add task"),
    el("textarea", { id: "comment", rows: "2", placeholder: "Why reject? (optional, for the agent)", "aria-label": "Comment" }),
    el(
      "div",
      { class: "controls" },
      el("button", { id: "approve", type: "button" }, "Approve"),
      el("button", { id: "reject", type: "button", class: "secondary" }, "Reject"),
    ),
  ),
);

function taskItem(text: string): HTMLLIElement {
  const area = el("textarea", { class: "task", rows: "1", "aria-label": "Task" });
  area.value = text;
  const remove = el("button", { type: "button", class: "remove secondary", title: "Remove this task" }, "×");
  const li = el("li", {}, area, remove);
  remove.addEventListener("click", () => li.remove());
  return li;
}

const list = byId<HTMLOListElement>("tasks");
byId("add-task").addEventListener("click", () => {
  const li = taskItem("");
  list.append(li);
  li.querySelector("textarea")?.focus();
});
byId("approve").addEventListener("click", () => {
  const tasks = [...list.querySelectorAll<HTMLTextAreaElement>("textarea.task")].map((t) => t.value);
  vscode.postMessage({ type: "approve", tasks });
});
byId("reject").addEventListener("click", () => vscode.postMessage({ type: "reject", comment: byId<HTMLTextAreaElement>("comment").value }));
window.addEventListener("message", (event: MessageEvent<{ type: string; goal?: string; tasks?: string[] }>) => {
  if (event.data?.type !== "plan") return;
  byId("plan-goal").textContent = event.data.goal ? `Goal: ${event.data.goal}` : "";
  list.replaceChildren(...(event.data.tasks ?? []).map(taskItem));
});
vscode.postMessage({ type: "ready" });
