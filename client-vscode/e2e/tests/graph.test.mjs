// Agent: Show Dependency Graph opens a webview panel that renders the workspace's import
// graph with Mermaid: one SVG box per module.
import assert from "node:assert/strict";
import { test } from "node:test";
import { WORKSPACE } from "../lib/fixtures.mjs";
import { scenarioRunner, waitFor } from "../lib/harness.mjs";
import { runCommand, webviewFrame } from "../lib/workbench.mjs";

const scenario = scenarioRunner(test);

scenario("The dependency graph webview renders the modules as nodes", { files: WORKSPACE }, async ({ page }) => {
  await runCommand(page, "Agent: Show Dependency Graph");
  const frame = await webviewFrame(page, "body[data-state]", "the dependency graph webview", 30000);
  const state = await waitFor(async () => {
    const s = await frame.locator("body").getAttribute("data-state");
    return s && s !== "loading" ? s : null;
  }, "the graph to load", 30000);
  assert.equal(state, "ready", `the graph rendered (#message: ${await frame.locator("#message").innerText().catch(() => "")})`);
  const nodes = frame.locator("#graph svg g.node");
  assert.ok((await nodes.count()) >= 3, "several nodes");
  const names = await nodes.evaluateAll((gs) => gs.map((g) => g.getAttribute("data-module") || g.getAttribute("data-package")));
  const text = await frame.locator("#graph svg").first().evaluate((svg) => svg.textContent || "");
  for (const module of ["app", "greet"]) {
    assert.ok(names.some((n) => n && n.split(/[./]/).includes(module)) , `a node for ${module}: ${JSON.stringify(names)}`);
  }
  assert.ok(names.some((n) => n && n.includes("shop")), `a node for the shop package or its modules: ${JSON.stringify(names)}`);
  assert.ok(/greet/.test(text) && /pricing/.test(text), `the node labels are rendered: ${text.slice(0, 300)}`);
  // the imports as arrows: app → greet, app → shop.pricing, shop.pricing → shop.tax
  assert.ok((await frame.locator("#graph svg .edgePaths path, #graph svg path.flowchart-link").count()) >= 3, "the imports are drawn as edges");
});
