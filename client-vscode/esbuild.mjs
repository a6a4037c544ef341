// Bundles the extension (dist/extension.js, Node, `vscode` external) and the webview
// scripts (dist/webview/*.js, browser). `--production` minifies and drops source maps;
// `--watch` rebuilds on change. Mermaid is bundled into the graph webview from npm: no CDN.
import * as esbuild from "esbuild";
import { existsSync, rmSync } from "node:fs";

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : "linked",
  logLevel: "info",
  legalComments: "none",
};

const builds = [
  {
    ...common,
    entryPoints: ["src/extension.ts"],
    outfile: "dist/extension.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
  },
  {
    ...common,
    // only the webview scripts that exist (the views are built alongside the core)
    entryPoints: Object.fromEntries(
      Object.entries({ agent: "webview/agent.ts", graph: "webview/graph.ts", plan: "webview/plan.ts" }).filter(([, file]) => existsSync(file)),
    ),
    outdir: "dist/webview",
    platform: "browser",
    format: "iife",
    target: "es2022",
  },
];

// a production build starts from an empty dist/ (no stale source maps get packaged)
if (production) rmSync("dist", { recursive: true, force: true });

const active = builds.filter((options) => !options.entryPoints || Object.keys(options.entryPoints).length > 0);

if (watch) {
  for (const options of active) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
} else {
  await Promise.all(active.map((options) => esbuild.build(options)));
}
