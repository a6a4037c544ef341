/**
 * Agent: Show Dependency Graph — a webview panel drawing the workspace's import graph with
 * Mermaid (bundled from npm into dist/webview/graph.js; no CDN). The graph comes from the
 * server's `dependency_graph` tool as JSON (agent/executeTool); the webview groups and caps
 * it (graphModel.ts) so large graphs stay responsive, filters it, and asks back here to open
 * a module's file or to pick a folder. A large workspace gets the folder picker first.
 * Must not know: how the graph is computed (the server's index does it).
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { AgentExecuteTool, Commands } from "../protocol";
import { parseFromGraphWebview, type FromGraphWebview, type ToGraphWebview } from "./graphMessages";
import { DEFAULT_THRESHOLD, moduleFileCandidates, type GraphJson } from "./graphModel";
import { showPage } from "./webviewPage";

const PANEL_TYPE = "agentls.dependencyGraph";
/** folders never offered in the picker */
const SKIP_FOLDERS = new Set(["node_modules", "dist", "out", "build", "__pycache__", "venv", "site-packages"]);

interface ToolGraphOutput {
  node_count?: number;
  edge_count?: number;
  truncated?: boolean;
  graph?: GraphJson | null;
}

class GraphPanel implements vscode.Disposable {
  private scope = "";
  private ready = false;
  private last: ToGraphWebview | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly ctx: AgentCtx,
    readonly panel: vscode.WebviewPanel,
    private readonly onDisposed: () => void,
  ) {
    panel.iconPath = vscode.Uri.joinPath(ctx.extension.extensionUri, "media", "agent.svg");
    showPage(panel.webview, ctx.extension.extensionUri, {
      title: "Dependency Graph",
      script: "graph.js",
      style: "graph.css",
      inlineStyles: true,
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        const m = parseFromGraphWebview(raw);
        if (m) void this.onMessage(m);
      }),
      panel.onDidDispose(() => this.dispose()),
      ctx.onDidChangeServer((state) => {
        if (state === "running" && this.last?.type === "error" && this.last.serverStopped) void this.load(this.scope);
      }),
    );
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.onDisposed();
  }

  private post(message: ToGraphWebview): void {
    this.last = message;
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  /** Ask the server for the graph of `scope` ("" = everything) and show it. */
  async load(scope: string): Promise<GraphJson | undefined> {
    this.scope = scope;
    this.panel.title = scope ? `Dependency Graph — ${scope}` : "Dependency Graph";
    if (!this.ctx.serverRunning) {
      this.post({ type: "error", scope, serverStopped: true, message: "The agentls server is not running." });
      return undefined;
    }
    this.post({ type: "loading", scope });
    try {
      const input: { format: "json"; path?: string } = { format: "json" };
      if (scope) input.path = scope;
      const result = await this.ctx.request(AgentExecuteTool, { name: "dependency_graph", input });
      if (!result.ok) {
        this.post({ type: "error", scope, serverStopped: false, message: `${result.error.type} error: ${result.error.message}` });
        return undefined;
      }
      const out = (result.output ?? {}) as ToolGraphOutput;
      const graph: GraphJson = { nodes: out.graph?.nodes ?? [], edges: out.graph?.edges ?? [] };
      this.post({
        type: "graph",
        scope,
        graph,
        nodeCount: out.node_count ?? graph.nodes.length,
        edgeCount: out.edge_count ?? graph.edges.length,
        truncated: out.truncated ?? false,
      });
      return graph;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.post({ type: "error", scope, serverStopped: !this.ctx.serverRunning, message });
      return undefined;
    }
  }

  private async onMessage(m: FromGraphWebview): Promise<void> {
    switch (m.type) {
      case "ready":
        this.ready = true;
        if (this.last) void this.panel.webview.postMessage(this.last);
        return;
      case "refresh":
        await this.load(this.scope);
        return;
      case "pickFolder": {
        const folder = await pickFolder(this.scope);
        if (folder !== undefined) await this.load(folder);
        return;
      }
      case "restartServer":
        await vscode.commands.executeCommand(Commands.restartServer);
        return;
      case "open":
        await openModule(m.module);
        return;
    }
  }
}

function root(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    return (await vscode.workspace.fs.stat(uri)).type === vscode.FileType.File;
  } catch {
    return false;
  }
}

/** Open a module's file: a TS/JS path as is; a Python module by its usual files, else by search. */
export async function openModule(name: string): Promise<void> {
  const base = root();
  if (!base) return;
  const candidates = moduleFileCandidates(name);
  for (const rel of candidates) {
    const uri = vscode.Uri.joinPath(base, rel);
    if (await exists(uri)) {
      await vscode.window.showTextDocument(uri, { preview: true });
      return;
    }
  }
  // src layouts (server/agentls/… for module agentls.…): search by the path's tail
  for (const rel of candidates.slice(0, 2)) {
    const found = await vscode.workspace.findFiles(`**/${rel}`, "**/{node_modules,.venv,venv,.git}/**", 1);
    if (found[0]) {
      await vscode.window.showTextDocument(found[0], { preview: true });
      return;
    }
  }
  void vscode.window.showWarningMessage(`No file found for module ${name}.`);
}

/** The workspace's top folders, "All" first (Enter keeps it); undefined = dismissed. */
export async function pickFolder(current = ""): Promise<string | undefined> {
  const base = root();
  let folders: string[] = [];
  if (base) {
    try {
      folders = (await vscode.workspace.fs.readDirectory(base))
        .filter(([name, type]) => type === vscode.FileType.Directory && !name.startsWith(".") && !SKIP_FOLDERS.has(name))
        .map(([name]) => name)
        .sort();
    } catch {
      folders = [];
    }
  }
  type Item = vscode.QuickPickItem & { folder: string };
  const items: Item[] = [
    { label: "All", description: "the whole workspace (large graphs are grouped by package)", folder: "" },
    ...folders.map((f) => ({ label: f, description: current === f ? "shown now" : undefined, folder: f })),
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: "Dependency Graph",
    placeHolder: "Which folder? (Enter: All)",
    matchOnDescription: true,
  });
  return pick?.folder;
}

export function registerGraphPanel(ctx: AgentCtx): vscode.Disposable {
  let current: GraphPanel | undefined;
  const show = async (arg?: unknown): Promise<void> => {
    const scope = typeof arg === "string" ? arg : "";
    if (current) {
      current.panel.reveal();
    } else {
      const panel = vscode.window.createWebviewPanel(PANEL_TYPE, "Dependency Graph", vscode.ViewColumn.Active, {
        enableScripts: true,
        retainContextWhenHidden: true,
      });
      current = new GraphPanel(ctx, panel, () => (current = undefined));
    }
    const panel = current;
    const graph = await panel.load(scope);
    // a large workspace: offer a folder first ("All" stays the default on Enter)
    if (!scope && graph && graph.nodes.length > DEFAULT_THRESHOLD && (await hasFolders())) {
      const folder = await pickFolder();
      if (folder && current === panel) await panel.load(folder);
    }
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(Commands.showDependencyGraph, show),
    {
      dispose: () => {
        current?.panel.dispose();
      },
    },
  );
}

async function hasFolders(): Promise<boolean> {
  const base = root();
  if (!base) return false;
  try {
    return (await vscode.workspace.fs.readDirectory(base)).some(([n, t]) => t === vscode.FileType.Directory && !n.startsWith("."));
  } catch {
    return false;
  }
}
