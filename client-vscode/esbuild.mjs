// Bundles the extension (dist/extension.js, Node, `vscode` external) and the webview
// scripts (dist/webview/*.js, browser). `--production` minifies and drops source maps;
// `--watch` rebuilds on change. Mermaid is bundled into the graph webview from npm: no CDN.
import * as esbuild from "esbuild";

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
    entryPoints: { agent: "webview/agent.ts", graph: "webview/graph.ts" },
    outdir: "dist/webview",
    platform: "browser",
    format: "iife",
    target: "es2022",
  },
];

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
