import * as assert from "node:assert/strict";
import {
  buildGraphView,
  groupKey,
  isPathName,
  mermaidLabel,
  moduleFileCandidates,
  nodeIdFromDom,
  packageOf,
  type GraphJson,
} from "../../src/views/graphModel";

function graph(nodes: string[], edges: [string, string][] = []): GraphJson {
  return { nodes, edges: edges.map(([from, to]) => ({ from, to })) };
}

/** `count` modules spread over `packages` Python packages under `root`, each importing the next. */
function big(count: number, packages: number, root = "app"): GraphJson {
  const nodes = Array.from({ length: count }, (_, i) => `${root}.p${i % packages}.m${i}`);
  const edges = nodes.slice(1).map((n, i) => [nodes[i], n] as [string, string]);
  return graph(nodes, edges);
}

/** The node ids declared in a Mermaid text (`m3[...]`). */
function declared(text: string): string[] {
  return [...text.matchAll(/^\s*(m\d+)\[/gm)].map((m) => m[1]);
}

describe("views: graph model", () => {
  describe("module names", () => {
    const cases: [string, boolean, string, string][] = [
      // name, is a path, package, group at depth 1
      ["agentls.tools.registry", false, "agentls.tools", "agentls"],
      ["agentls", false, "", "agentls"],
      ["src/views/index.ts", true, "src/views", "src"],
      ["main.ts", true, "", "main.ts"],
      ["lib/a.mjs", true, "lib", "lib"],
    ];
    for (const [name, path, pkg, group] of cases) {
      it(`${name}: path=${path}, package "${pkg}", group "${group}"`, () => {
        assert.equal(isPathName(name), path);
        assert.equal(packageOf(name), pkg);
        assert.equal(groupKey(name, 1), group);
      });
    }

    it("a group never swallows the module's own last segment", () => {
      assert.equal(groupKey("a.b.c", 5), "a.b");
      assert.equal(groupKey("a.b.c", 2), "a.b");
      assert.equal(groupKey("a.b.c", 1), "a");
    });

    it("finds a Python module's files and keeps TS paths", () => {
      assert.deepEqual(moduleFileCandidates("pkg.mod").slice(0, 2), ["pkg/mod.py", "pkg/mod/__init__.py"]);
      assert.deepEqual(moduleFileCandidates("src/a.ts"), ["src/a.ts"]);
    });
  });

  describe("Mermaid labels", () => {
    it("quotes plain names as they are", () => {
      assert.equal(mermaidLabel("agentls.tools.registry"), '"agentls.tools.registry"');
      assert.equal(mermaidLabel("src/views/a-b.ts"), '"src/views/a-b.ts"');
    });

    const hostile = [
      'a"]; click m0 call alert(1); x["',
      "a]\nclick m0 href \"javascript:alert(1)\"",
      "<img src=x onerror=alert(1)>",
      "`**markdown**`",
      "a#quot;b",
      "%%{init: {'securityLevel': 'loose'}}%%",
      "end",
      "a|b|c{d}",
    ];
    for (const name of hostile) {
      it(`escapes ${JSON.stringify(name)}`, () => {
        const label = mermaidLabel(name);
        const inner = label.slice(1, -1);
        assert.equal(label[0], '"');
        assert.equal(label.at(-1), '"');
        assert.match(inner, /^[A-Za-z0-9 _./:@,+()#;-]*$/, "only safe characters and entities remain");
        assert.ok(!/[<>"`[\]{}|%\n]/.test(inner));
        // every # starts an entity, so a name can't forge one
        assert.ok(!/#(?!\d+;)/.test(inner));
      });
    }

    it("hostile module names stay inside their labels in the whole text", () => {
      const evil = 'x"] --> y; click y call alert(1); z["';
      const view = buildGraphView(graph([evil, "ok"], [[evil, "ok"]]));
      const lines = view.mermaid.split("\n");
      assert.ok(lines.every((l) => !/click/.test(l) || l.includes("#")), view.mermaid);
      assert.deepEqual(declared(view.mermaid).sort(), ["m0", "m1"]);
      assert.ok(!view.mermaid.includes("call alert(1); z[\""));
    });
  });

  describe("small graphs", () => {
    it("shows every module, edges as arrows, packages as subgraphs", () => {
      const g = graph(["a.x", "a.y", "b.z"], [["a.x", "a.y"], ["a.y", "b.z"], ["a.x", "a.x"]]);
      const view = buildGraphView(g);
      assert.equal(view.clustered, false);
      assert.equal(view.capped, false);
      assert.equal(view.note, "");
      assert.equal(view.shownModules, 3);
      assert.deepEqual(
        view.nodes.map((n) => [n.kind, n.name]),
        [["module", "a.x"], ["module", "a.y"], ["module", "b.z"]],
      );
      assert.match(view.mermaid, /^flowchart LR/);
      assert.match(view.mermaid, /subgraph g0\["a"\]/);
      assert.match(view.mermaid, /subgraph g1\["b"\]/);
      assert.match(view.mermaid, /m0\["x"\]/, "inside a package box a module shows its last segment");
      assert.match(view.mermaid, /m0 --> m1/);
      assert.match(view.mermaid, /m1 --> m2/);
      assert.equal(view.edgesShown, 2, "self-imports are not drawn");
    });

    it("a Python package's own module sits in the package's box", () => {
      const view = buildGraphView(graph(["app", "shop", "shop.tax"], [["app", "shop"], ["shop", "shop.tax"]]));
      assert.match(view.mermaid, /subgraph g0\["shop"\]\n {4}m1\["__init__"\]\n {4}m2\["tax"\]\n {2}end/);
      assert.match(view.mermaid, /^ {2}m0\["app"\]$/m);
    });

    it("one package: no subgraph, full names", () => {
      const view = buildGraphView(graph(["src/a.ts", "src/b.ts"], [["src/a.ts", "src/b.ts"]]));
      assert.ok(!view.mermaid.includes("subgraph"));
      assert.match(view.mermaid, /m0\["src\/a.ts"\]/);
    });

    it("counts nodes that appear only in edges", () => {
      const view = buildGraphView({ nodes: ["a"], edges: [{ from: "a", to: "b" }] });
      assert.equal(view.totalModules, 2);
    });
  });

  describe("large graphs", () => {
    it("collapses modules into their packages with edge counts", () => {
      const view = buildGraphView(big(400, 8), { threshold: 150 });
      assert.equal(view.clustered, true);
      assert.equal(view.capped, false);
      assert.equal(view.nodes.length, 8);
      assert.equal(view.shownModules, 400);
      assert.ok(view.nodes.every((n) => n.kind === "package" && n.size === 50 && n.drill === `${n.name}.`));
      assert.match(view.note, /400 modules grouped into 8 boxes by package/);
      assert.match(view.mermaid, /-->\|"\d+"\|/, "parallel imports become one arrow with a count");
      assert.match(view.mermaid, /m0\["app\.p0 \(50 modules\)"\]/);
      assert.match(view.mermaid, /class m0,m1,.* package/);
    });

    it("cuts packages as deep as still fits the threshold", () => {
      // a.<10 subpackages>.<10 modules>: depth 2 has 10 groups, depth 1 only 1
      const nodes: string[] = [];
      for (let p = 0; p < 10; p++) for (let m = 0; m < 10; m++) nodes.push(`a.s${p}.m${m}`);
      const view = buildGraphView(graph(nodes), { threshold: 20 });
      assert.equal(view.nodes.length, 10);
      assert.deepEqual(view.nodes[0], { id: "m0", kind: "package", name: "a.s0", size: 10, drill: "a.s0." });
    });

    it("caps a flat folder with a visible note, keeping the best connected", () => {
      const nodes = Array.from({ length: 300 }, (_, i) => `f${String(i).padStart(3, "0")}.ts`);
      const edges: [string, string][] = nodes.slice(1, 40).map((n) => [n, nodes[0]]);
      const view = buildGraphView(graph(nodes, edges), { threshold: 150 });
      assert.equal(view.capped, true);
      assert.equal(view.nodes.length, 150);
      assert.equal(view.shownModules, 150);
      assert.match(view.note, /showing 150 of 300 modules — narrow with the folder picker/);
      assert.ok(view.nodes.some((n) => n.name === "f000.ts"), "the hub is kept");
      assert.equal(declared(view.mermaid).length, 150);
    });

    it("caps the arrows, keeping the heaviest", () => {
      const nodes = Array.from({ length: 30 }, (_, i) => `n${i}`);
      const edges: [string, string][] = [];
      for (const a of nodes) for (const b of nodes) if (a !== b) edges.push([a, b]);
      const view = buildGraphView(graph(nodes, edges), { maxEdges: 100 });
      assert.equal(view.edgesShown, 100);
      assert.equal(view.edgesTotal, 870);
      assert.match(view.note, /showing the 100 heaviest of 870 import links/);
    });

    it("keeps a Python package and a folder of the same name apart", () => {
      const nodes = [...Array.from({ length: 5 }, (_, i) => `src.m${i}`), ...Array.from({ length: 5 }, (_, i) => `src/f${i}.ts`)];
      const view = buildGraphView(graph(nodes), { threshold: 3 });
      assert.deepEqual(
        view.nodes.map((n) => n.drill),
        ["src/", "src."].sort((a, b) => `${a.at(-1)}${a}`.localeCompare(`${b.at(-1)}${b}`)),
      );
    });
  });

  describe("filter", () => {
    it("keeps matching modules and the edges between them", () => {
      const g = graph(["a.x", "a.y", "b.z"], [["a.x", "a.y"], ["a.y", "b.z"]]);
      const view = buildGraphView(g, { filter: "A." });
      assert.deepEqual(view.nodes.map((n) => n.name), ["a.x", "a.y"]);
      assert.equal(view.edgesShown, 1);
      assert.equal(view.matchingModules, 2);
      assert.match(view.note, /2 modules of 3 match “A.”/);
    });

    it("a drilled-in package shows its modules", () => {
      const all = big(400, 8);
      const top = buildGraphView(all, { threshold: 150 });
      const inside = buildGraphView(all, { threshold: 150, filter: top.nodes[0].drill });
      assert.equal(inside.clustered, false);
      assert.equal(inside.nodes.length, 50);
    });

    it("nothing matching: no nodes", () => {
      const view = buildGraphView(graph(["a", "b"]), { filter: "zzz" });
      assert.equal(view.nodes.length, 0);
    });
  });

  describe("rendered node ids", () => {
    const cases: [string, string | null, string | undefined][] = [
      ["flowchart-m12-3", null, "m12"],
      ["dependency-graph-1-flowchart-m0-0", null, "m0"],
      ["whatever", "m7", "m7"],
      ["m4", null, "m4"],
      ["flowchart-x-1", null, undefined],
    ];
    for (const [dom, data, want] of cases) {
      it(`${dom} / ${String(data)} → ${String(want)}`, () => assert.equal(nodeIdFromDom(dom, data), want));
    }
  });
});
