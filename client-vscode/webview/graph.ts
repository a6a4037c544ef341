/**
 * The dependency graph panel's webview script (bundled with Mermaid from npm into
 * dist/webview/graph.js; no CDN). It receives the import graph as JSON from the extension
 * (graphMessages.ts), groups / caps / filters it (graphModel.ts), renders it with Mermaid
 * (securityLevel "strict"), and makes the boxes clickable: a module opens its file, a
 * package box drills into the package (sets the filter).
 *
 * Stable DOM hooks (for the e2e tests):
 *   #filter            the filter box (substring of module names)
 *   #folder            "Folder…": pick a top folder (asks the extension)
 *   #refresh           asks the server again
 *   #note              what is shown ("showing N of M modules — …"), hidden when everything is
 *   #message           loading / error text; #restart-server inside when the server is stopped
 *   #graph svg g.node  the rendered boxes, each with data-module or data-package
 *   body[data-state]   "loading" | "ready" | "empty" | "error"
 */

import type { Mermaid } from "mermaid" with { "resolution-mode": "import" };
import type { FromGraphWebview, ToGraphWebview } from "../src/views/graphMessages";
import { buildGraphView, nodeIdFromDom, type GraphJson, type ShownNode } from "../src/views/graphModel";

interface VsCodeApi {
  postMessage(message: FromGraphWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const send = (m: FromGraphWebview): void => vscode.postMessage(m);

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// --- page ---------------------------------------------------------------------------------------------
const filter = el("input", { id: "filter", type: "search", placeholder: "Filter modules…", "aria-label": "Filter modules" });
const folderButton = el("button", { id: "folder", type: "button", title: "Show one folder of the workspace" }, "Folder…");
const refreshButton = el("button", { id: "refresh", type: "button", class: "secondary", title: "Ask the server again" }, "Refresh");
const fitButton = el("button", { id: "fit", type: "button", class: "secondary", title: "Fit the graph to the window" }, "Fit");
const scopeLabel = el("span", { id: "scope", class: "muted" });
const toolbar = el("div", { id: "toolbar" });
toolbar.append(filter, folderButton, refreshButton, fitButton, scopeLabel);
const note = el("div", { id: "note", class: "note" });
const message = el("div", { id: "message", role: "status" });
const container = el("div", { id: "graph" });
document.body.append(toolbar, note, message, container);

// Mermaid is ESM-only: a dynamic import (esbuild inlines it into this one bundle)
const mermaidReady = import("mermaid").then(({ default: mermaid }) => {
  configure(mermaid);
  return mermaid;
});

function configure(mermaid: Mermaid): void {
  const dark = document.body.classList.contains("vscode-dark") || document.body.classList.contains("vscode-high-contrast");
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: "strict",
    theme: dark ? "dark" : "default",
    maxTextSize: 1_000_000,
    maxEdges: 5000,
    // HTML labels decode the #<code>; entities graphModel writes for unusual characters
    htmlLabels: true,
    flowchart: { useMaxWidth: false, curve: "basis" },
  });
}

let graph: GraphJson | undefined;
let renderCount = 0;
const saved = (vscode.getState() ?? {}) as { filter?: string; fit?: boolean };
filter.value = saved.filter ?? "";
let fit = saved.fit ?? false;
container.classList.toggle("fit", fit);

function save(): void {
  vscode.setState({ filter: filter.value, fit });
}

function setState(state: "loading" | "ready" | "empty" | "error"): void {
  document.body.dataset.state = state;
}

function showMessage(text: string, restart = false): void {
  message.replaceChildren(el("span", {}, text));
  if (restart) {
    const b = el("button", { id: "restart-server", type: "button" }, "Restart Server");
    b.addEventListener("click", () => send({ type: "restartServer" }));
    message.append(" ", b);
  }
  message.hidden = !text;
}

function showNote(text: string): void {
  note.textContent = text;
  note.hidden = !text;
}

async function render(): Promise<void> {
  if (!graph) return;
  const mine = ++renderCount;
  const view = buildGraphView(graph, { filter: filter.value });
  if (view.nodes.length === 0) {
    container.replaceChildren();
    showNote(view.note);
    showMessage(graph.nodes.length ? "No module matches the filter." : "No imports between files of the workspace were found here.");
    setState("empty");
    return;
  }
  showMessage("Rendering…");
  try {
    const mermaid = await mermaidReady;
    const { svg } = await mermaid.render(`dependency-graph-${mine}`, view.mermaid);
    if (mine !== renderCount) return; // a newer render started meanwhile
    container.innerHTML = svg; // Mermaid's own output, sanitised by it (securityLevel strict)
    wire(view.nodes);
    showNote(view.note);
    showMessage("");
    setState("ready");
  } catch (err) {
    if (mine !== renderCount) return;
    container.replaceChildren();
    showMessage(`Mermaid could not draw this graph: ${err instanceof Error ? err.message : String(err)}`);
    setState("error");
  }
}

/** Make the drawn boxes clickable: modules open their file, packages drill in. */
function wire(nodes: ShownNode[]): void {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const g of container.querySelectorAll<SVGGElement>("svg g.node")) {
    const id = nodeIdFromDom(g.id, g.getAttribute("data-id"));
    const node = id ? byId.get(id) : undefined;
    if (!node) continue;
    g.classList.add("clickable", node.kind);
    g.setAttribute(node.kind === "module" ? "data-module" : "data-package", node.name);
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
    title.textContent = node.kind === "module" ? `${node.name} — click to open` : `${node.name}: ${node.size} modules — click to look inside`;
    g.prepend(title);
    const activate = (): void => {
      if (node.kind === "module") {
        send({ type: "open", module: node.name });
      } else if (node.drill) {
        filter.value = node.drill;
        save();
        void render();
      }
    };
    g.addEventListener("click", activate);
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        activate();
      }
    });
  }
}

let debounce: ReturnType<typeof setTimeout> | undefined;
filter.addEventListener("input", () => {
  save();
  if (debounce) clearTimeout(debounce);
  debounce = setTimeout(() => void render(), 250);
});
folderButton.addEventListener("click", () => send({ type: "pickFolder" }));
refreshButton.addEventListener("click", () => send({ type: "refresh" }));
fitButton.addEventListener("click", () => {
  fit = !fit;
  container.classList.toggle("fit", fit);
  save();
});

window.addEventListener("message", (event: MessageEvent<ToGraphWebview>) => {
  const m = event.data;
  scopeLabel.textContent = m.scope ? `Folder: ${m.scope}` : "Whole workspace";
  switch (m.type) {
    case "loading":
      setState("loading");
      showMessage(`Asking the server for the import graph${m.scope ? ` of ${m.scope}` : ""}…`);
      return;
    case "error":
      graph = undefined;
      container.replaceChildren();
      showNote("");
      showMessage(m.serverStopped ? `${m.message} The graph comes from its index.` : `The dependency_graph tool failed: ${m.message}`, m.serverStopped);
      setState("error");
      return;
    case "graph":
      graph = m.graph;
      void render().then(() => {
        if (m.truncated) {
          const cut = `The server cut the graph at ${m.graph.nodes.length} of ${m.nodeCount} modules and ${m.graph.edges.length} of ${m.edgeCount} imports — narrow with the folder picker.`;
          showNote(note.textContent ? `${cut} ${note.textContent}` : cut);
        }
      });
      return;
  }
});

send({ type: "ready" });
