/**
 * The dependency graph as the graph panel shows it: the `dependency_graph` tool's JSON
 * (nodes = Python modules or TS/JS file paths, edges = imports) filtered, grouped and turned
 * into Mermaid text. Small graphs show every module in a subgraph per package; above the
 * threshold modules collapse into their packages (as deep as still fits, with edge counts);
 * when even that is too much, the best-connected are kept with a visible note. Labels are
 * quoted with every unusual character as a Mermaid entity and ids are generated, so no
 * module name can inject Mermaid syntax.
 * Must not know: VS Code or the DOM (the webview bundles it; unit-tested).
 */

export interface GraphJson {
  nodes: string[];
  edges: { from: string; to: string }[];
}

export interface GraphOptions {
  /** the most boxes drawn (modules or packages) */
  threshold?: number;
  /** the most arrows drawn (the heaviest are kept) */
  maxEdges?: number;
  /** case-insensitive substring of the module name */
  filter?: string;
}

export interface ShownNode {
  /** the Mermaid id (m0, m1, …) */
  id: string;
  kind: "module" | "package";
  /** the module name, or the package key (e.g. "agentls.tools", "src/views") */
  name: string;
  /** modules inside (1 for a module) */
  size: number;
  /** for a package: the filter that looks inside it ("agentls.tools.", "src/views/") */
  drill?: string;
}

export interface GraphView {
  mermaid: string;
  nodes: ShownNode[];
  totalModules: number;
  /** modules after the filter */
  matchingModules: number;
  /** modules drawn, alone or inside a package box */
  shownModules: number;
  clustered: boolean;
  capped: boolean;
  edgesShown: number;
  edgesTotal: number;
  /** one line for the user, empty when everything is shown as is */
  note: string;
}

export const DEFAULT_THRESHOLD = 150;
export const DEFAULT_MAX_EDGES = 400;

// --- module names ---------------------------------------------------------------------------------
/** TS/JS nodes are file paths; Python nodes are dotted module names. */
export function isPathName(name: string): boolean {
  return name.includes("/") || /\.(?:[cm]?[jt]sx?|d\.ts)$/i.test(name);
}

export function separatorOf(name: string): "/" | "." {
  return isPathName(name) ? "/" : ".";
}

export function segmentsOf(name: string): string[] {
  return name.split(separatorOf(name)).filter((s) => s.length > 0);
}

/** "agentls.tools.registry" → "agentls.tools"; "src/views/a.ts" → "src/views"; top level → "" */
export function packageOf(name: string): string {
  const segs = segmentsOf(name);
  return segs.slice(0, -1).join(separatorOf(name));
}

/** The group a module falls in when packages are cut at `depth` (a top-level module is its own). */
export function groupKey(name: string, depth: number): string {
  const segs = segmentsOf(name);
  if (segs.length <= 1) return name;
  return segs.slice(0, Math.min(depth, segs.length - 1)).join(separatorOf(name));
}

/** Where a module's file may be, relative to the workspace root (first that exists wins). */
export function moduleFileCandidates(name: string): string[] {
  if (isPathName(name)) return [name];
  const rel = segmentsOf(name).join("/");
  return [`${rel}.py`, `${rel}/__init__.py`, `${rel}.pyi`, `${rel}/__init__.pyi`];
}

// --- Mermaid text ----------------------------------------------------------------------------------
const SAFE = /[A-Za-z0-9 _./:@,+()-]/;

/** A quoted Mermaid label: every character outside a small safe set becomes `#<code>;`. */
export function mermaidLabel(text: string): string {
  let out = "";
  for (const ch of text.replace(/\s+/g, " ")) out += SAFE.test(ch) ? ch : `#${ch.codePointAt(0)};`;
  return `"${out}"`;
}

// --- the view ----------------------------------------------------------------------------------------
interface Group {
  /** unique: the separator and the key (a Python package and a folder may share a name) */
  uid: string;
  key: string;
  sep: "/" | ".";
  modules: string[];
}

function groupsAt(nodes: string[], depth: number): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const n of nodes) {
    const key = Number.isFinite(depth) ? groupKey(n, depth) : n;
    const sep = separatorOf(n);
    const uid = `${sep}${key}`;
    let g = groups.get(uid);
    if (!g) groups.set(uid, (g = { uid, key, sep, modules: [] }));
    g.modules.push(n);
  }
  return groups;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function buildGraphView(graph: GraphJson, options: GraphOptions = {}): GraphView {
  const threshold = Math.max(1, options.threshold ?? DEFAULT_THRESHOLD);
  const maxEdges = Math.max(0, options.maxEdges ?? DEFAULT_MAX_EDGES);
  const all = [...new Set([...graph.nodes, ...graph.edges.flatMap((e) => [e.from, e.to])])].sort();
  const needle = (options.filter ?? "").trim().toLowerCase();
  const nodes = needle ? all.filter((n) => n.toLowerCase().includes(needle)) : all;
  const kept = new Set(nodes);
  const edges = graph.edges.filter((e) => kept.has(e.from) && kept.has(e.to) && e.from !== e.to);

  // 1. choose the grouping: every module, or packages cut as deep as still fits
  let groups: Map<string, Group>;
  let clustered = false;
  if (nodes.length <= threshold) {
    groups = groupsAt(nodes, Number.POSITIVE_INFINITY);
  } else {
    clustered = true;
    const deepest = Math.max(1, ...nodes.map((n) => segmentsOf(n).length - 1));
    groups = groupsAt(nodes, 1);
    for (let depth = deepest; depth >= 1; depth--) {
      const g = groupsAt(nodes, depth);
      if (g.size <= threshold) {
        groups = g;
        break;
      }
    }
  }

  // 2. group of each module; edges between groups, counted
  const groupOf = new Map<string, Group>();
  for (const g of groups.values()) for (const m of g.modules) groupOf.set(m, g);
  const weights = new Map<string, { from: string; to: string; count: number }>();
  for (const e of edges) {
    const a = groupOf.get(e.from)!.uid;
    const b = groupOf.get(e.to)!.uid;
    if (a === b) continue;
    const k = `${a}\u0000${b}`;
    const w = weights.get(k);
    if (w) w.count += 1;
    else weights.set(k, { from: a, to: b, count: 1 });
  }

  // 3. cap: too many boxes even at the top level → keep the best connected
  let capped = false;
  let shownGroups = [...groups.values()];
  if (shownGroups.length > threshold) {
    capped = true;
    const degree = new Map<string, number>();
    for (const w of weights.values()) {
      degree.set(w.from, (degree.get(w.from) ?? 0) + w.count);
      degree.set(w.to, (degree.get(w.to) ?? 0) + w.count);
    }
    shownGroups = shownGroups
      .sort((a, b) => (degree.get(b.uid) ?? 0) - (degree.get(a.uid) ?? 0) || a.uid.localeCompare(b.uid))
      .slice(0, threshold)
      .sort((a, b) => a.uid.localeCompare(b.uid));
  }
  const shownKeys = new Set(shownGroups.map((g) => g.uid));
  let shownEdges = [...weights.values()].filter((w) => shownKeys.has(w.from) && shownKeys.has(w.to));
  const edgesTotal = shownEdges.length;
  if (shownEdges.length > maxEdges) {
    capped = true;
    shownEdges = shownEdges.sort((a, b) => b.count - a.count).slice(0, maxEdges);
  }

  // 4. Mermaid: generated ids, quoted labels; subgraphs per package when modules are shown whole
  const ids = new Map<string, string>();
  const shown: ShownNode[] = shownGroups.map((g, i) => {
    const id = `m${i}`;
    ids.set(g.uid, id);
    // a package box holding one module is drawn as that module
    return g.modules.length > 1
      ? { id, kind: "package", name: g.key, size: g.modules.length, drill: `${g.key}${g.sep}` }
      : { id, kind: "module", name: g.modules[0], size: 1 };
  });
  const lines = ["flowchart LR"];
  // a Python package's own module (its __init__) goes in the package's box
  const packageKeys = new Set(shown.filter((n) => n.kind === "module").map((n) => packageOf(n.name)));
  const boxOf = (n: ShownNode): string => {
    if (n.kind !== "module") return "";
    return !isPathName(n.name) && packageKeys.has(n.name) ? n.name : packageOf(n.name);
  };
  const label = (n: ShownNode, box: string): string => {
    if (n.kind === "package") return mermaidLabel(`${n.name} (${plural(n.size, "module")})`);
    if (!box) return mermaidLabel(n.name);
    return mermaidLabel(box === n.name ? "__init__" : segmentsOf(n.name).slice(-1)[0] ?? n.name);
  };
  const byPackage = new Map<string, ShownNode[]>();
  for (const n of shown) {
    const pkg = boxOf(n);
    const list = byPackage.get(pkg);
    if (list) list.push(n);
    else byPackage.set(pkg, [n]);
  }
  const useSubgraphs = !clustered && byPackage.size > 1;
  let sub = 0;
  for (const [pkg, members] of [...byPackage.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const inBox = useSubgraphs && pkg !== "";
    if (inBox) lines.push(`  subgraph g${sub++}[${mermaidLabel(pkg)}]`);
    for (const n of members) lines.push(`${inBox ? "    " : "  "}${n.id}[${label(n, inBox ? pkg : "")}]`);
    if (inBox) lines.push("  end");
  }
  for (const w of shownEdges) {
    const a = ids.get(w.from)!;
    const b = ids.get(w.to)!;
    lines.push(w.count > 1 ? `  ${a} -->|"${w.count}"| ${b}` : `  ${a} --> ${b}`);
  }
  const packages = shown.filter((n) => n.kind === "package").map((n) => n.id);
  if (packages.length) {
    lines.push("  classDef package stroke-dasharray: 4 2,stroke-width:2px");
    lines.push(`  class ${packages.join(",")} package`);
  }

  // 5. the note
  const shownModules = shownGroups.reduce((s, g) => s + g.modules.length, 0);
  const notes: string[] = [];
  if (needle) notes.push(`${plural(nodes.length, "module")} of ${all.length} match “${options.filter?.trim()}”`);
  if (capped && shownModules < nodes.length) {
    notes.push(`showing ${shownModules} of ${plural(nodes.length, "module")} — narrow with the folder picker or the filter`);
  } else if (clustered) {
    notes.push(`${plural(nodes.length, "module")} grouped into ${plural(shownGroups.length, "box", "boxes")} by package — click a package to look inside`);
  }
  if (shownEdges.length < edgesTotal) notes.push(`showing the ${shownEdges.length} heaviest of ${edgesTotal} import links`);

  return {
    mermaid: lines.join("\n"),
    nodes: shown,
    totalModules: all.length,
    matchingModules: nodes.length,
    shownModules,
    clustered,
    capped,
    edgesShown: shownEdges.length,
    edgesTotal,
    note: notes.join("; "),
  };
}

/** A Mermaid node id (m12) from a rendered node's DOM id (e.g. "graph-1-flowchart-m12-3"). */
export function nodeIdFromDom(domId: string, dataId?: string | null): string | undefined {
  if (dataId && /^m\d+$/.test(dataId)) return dataId;
  const m = /(?:^|-)flowchart-(m\d+)-\d+$/.exec(domId) ?? /(?:^|-)(m\d+)(?:-\d+)?$/.exec(domId);
  return m?.[1];
}
