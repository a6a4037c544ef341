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
 *   #zoom-in, #zoom-out, #fit   the drawing's size (Ctrl+wheel zooms too)
 *   #note              what is shown ("showing N of M modules — …"), hidden when everything is
 *   #message           loading / error text; #restart-server inside when the server is stopped
 *   #graph svg g.node  the rendered boxes, each with data-module or data-package
 *   body[data-state]   "loading" | "ready" | "empty" | "error"
 */

import type { Mermaid } from "mermaid" with { "resolution-mode": "import" };
import type { FromGraphWebview, ToGraphWebview } from "../src/views/graphMessages";
import { buildGraphView, nodeIdFromDom, type GraphJson, type ShownNode } from "../src/views/graphModel";
import { el } from "./dom";

interface VsCodeApi {
  postMessage(message: FromGraphWebview): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();
const send = (m: FromGraphWebview): void => vscode.postMessage(m);

// --- page ---------------------------------------------------------------------------------------------
const filter = el("input", { id: "filter", type: "search", placeholder: "Filter modules…", "aria-label": "Filter modules" });
const folderButton = el("button", { id: "folder", type: "button", title: "Show one folder of the workspace" }, "Folder…");
const refreshButton = el("button", { id: "refresh", type: "button", class: "secondary", title: "Ask the server again" }, "Refresh");
const zoomOut = el("button", { id: "zoom-out", type: "button", class: "secondary", title: "Smaller (Ctrl+wheel)" }, "−");
const zoomIn = el("button", { id: "zoom-in", type: "button", class: "secondary", title: "Larger (Ctrl+wheel)" }, "+");
const fitButton = el("button", { id: "fit", type: "button", class: "secondary", title: "Fit the graph to the window" }, "Fit");
const scopeLabel = el("span", { id: "scope", class: "muted" });
const toolbar = el("div", { id: "toolbar" });
toolbar.append(filter, folderButton, refreshButton, zoomOut, zoomIn, fitButton, scopeLabel);
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
const saved = (vscode.getState() ?? {}) as { filter?: string; zoom?: number };
filter.value = saved.filter ?? "";
/** 0 = fit to the window, a number = that scale of the drawing's natural size, undefined = auto */
let zoom: number | undefined = typeof saved.zoom === "number" ? saved.zoom : undefined;

function save(): void {
  vscode.setState({ filter: filter.value, zoom });
}

/** Size the drawing: its natural size times `zoom`, or fitted to the window. */
function applyZoom(): void {
  const svg = container.querySelector("svg");
  fitButton.classList.toggle("active", zoom === 0);
  if (!svg) return;
  const box = svg.viewBox.baseVal;
  if (zoom === 0 || !box || !box.width) {
    svg.style.width = "100%";
    svg.style.maxWidth = "100%";
    svg.style.height = "auto";
  } else {
    // auto: shrink a wide drawing towards the window, but never below half size (readable)
    const scale = zoom ?? Math.max(0.5, Math.min(1, container.clientWidth / box.width));
    svg.style.maxWidth = "none";
    svg.style.width = `${Math.round(box.width * scale)}px`;
    svg.style.height = `${Math.round(box.height * scale)}px`;
  }
}

function setZoom(next: number): void {
  zoom = next === 0 ? 0 : Math.min(4, Math.max(0.1, next));
  applyZoom();
  save();
}

/** The scale the drawing has now (a fitted one measured), to zoom from. */
function currentScale(): number {
  if (zoom) return zoom;
  const svg = container.querySelector("svg");
  const w = svg?.viewBox.baseVal?.width;
  return svg && w ? svg.getBoundingClientRect().width / w : 1;
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

async function render(scrollToTop = false): Promise<void> {
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
    applyZoom();
    if (scrollToTop) {
      container.scrollTo(0, 0);
      window.scrollTo(0, 0);
    }
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
        void render(true);
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
  debounce = setTimeout(() => void render(true), 250);
});
folderButton.addEventListener("click", () => send({ type: "pickFolder" }));
refreshButton.addEventListener("click", () => send({ type: "refresh" }));
fitButton.addEventListener("click", () => setZoom(zoom === 0 ? 1 : 0));
zoomIn.addEventListener("click", () => setZoom(currentScale() * 1.25));
zoomOut.addEventListener("click", () => setZoom(currentScale() / 1.25));
container.addEventListener(
  "wheel",
  (e) => {
    if (!e.ctrlKey && !e.metaKey) return;
    e.preventDefault();
    setZoom(currentScale() * (e.deltaY < 0 ? 1.1 : 1 / 1.1));
  },
  { passive: false },
);

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
      void render(true).then(() => {
        if (m.truncated) {
          const cut = `The server cut the graph at ${m.graph.nodes.length} of ${m.nodeCount} modules and ${m.graph.edges.length} of ${m.edgeCount} imports — narrow with the folder picker.`;
          showNote(note.textContent ? `${cut} ${note.textContent}` : cut);
        }
      });
      return;
  }
});

send({ type: "ready" });
