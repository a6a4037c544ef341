// The processes of one end-to-end scenario: a fresh workspace copied from a fixture, the
// scripted model server, code-server (real VS Code, our .vsix installed) with its own
// user-data dir, and headless Chromium on it. `scenario()` wraps a node:test test: it sets
// everything up, hands the page to the test body, and on failure copies a screenshot, the
// VS Code logs (extension host, our output channel with the server's stderr), a Playwright
// trace, the model's requests and the workspace to e2e/artifacts/<test>/. Every process
// group it starts is killed when the test ends, passed or not.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const E2E = path.resolve(HERE, "..");
export const CLIENT = path.resolve(E2E, "..");
export const REPO = path.resolve(CLIENT, "..");
export const CACHE = process.env.AGENTLS_E2E_CACHE || path.join(process.env.HOME || "/root", ".cache", "agentls-e2e");
export const STATE = path.join(E2E, ".state");
export const ARTIFACTS = path.join(E2E, "artifacts");
export const EXTENSIONS_DIR = path.join(STATE, "extensions");
const NODE24_BIN = path.join(CACHE, "node24", "node_modules", "node", "bin");
const CODE_SERVER = path.join(CACHE, "cs", "node_modules", ".bin", "code-server");
const CHROMIUM = process.env.AGENTLS_E2E_CHROMIUM || "/usr/bin/chromium";
const PYTHON = process.env.AGENTLS_E2E_PYTHON || path.join(REPO, ".venv", "bin", "python");
export const SERVER_COMMAND = process.env.AGENTLS_E2E_SERVER_COMMAND || `${path.join(REPO, ".venv", "bin", "agentls")} serve`;
export const EXTENSION_ID = "agentls.agentls";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `predicate` (sync or async) until it returns a truthy value, which is returned. */
export async function waitFor(predicate, what, timeoutMs = 30000, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${last.message})` : ""}`);
    }
    await sleep(everyMs);
  }
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function slug(name) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60);
}

/** Writes `files` ({relative path: text}) under `dir`. */
export function writeFiles(dir, files) {
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

/** A process in its own process group (setsid), so the whole tree can be killed at once. */
function startGroup(command, args, options, logFile) {
  const out = fs.openSync(logFile, "a");
  const child = spawn(command, args, { ...options, detached: true, stdio: ["ignore", out, out] });
  fs.closeSync(out);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  child.exitedEarly = false;
  child.once("exit", () => { child.exitedEarly = true; });
  return {
    child,
    exited,
    async stop() {
      for (const [signal, waitMs] of [["SIGTERM", 5000], ["SIGKILL", 2000]]) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          return; // the group is gone
        }
        const done = await Promise.race([exited.then(() => true), sleep(waitMs).then(() => false)]);
        if (done) {
          // children of the leader (extension host, language server) may outlive it briefly
          try { process.kill(-child.pid, "SIGKILL"); } catch { /* gone */ }
          return;
        }
      }
    },
  };
}

/** The scripted OpenAI-compatible model server (model_server.py) on a free loopback port. */
export async function startModel(dir, script) {
  const scriptFile = path.join(dir, "model-script.json");
  const requestsFile = path.join(dir, "model-requests.json");
  const logFile = path.join(dir, "model-server.log");
  fs.writeFileSync(scriptFile, JSON.stringify(script, null, 1));
  const proc = startGroup(PYTHON, [path.join(E2E, "model_server.py"), scriptFile, requestsFile], { cwd: REPO }, logFile);
  const baseUrl = await waitFor(() => {
    if (proc.child.exitedEarly) throw new Error(`model server exited: ${fs.readFileSync(logFile, "utf8")}`);
    const first = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").split("\n")[0] : "";
    return first.startsWith("http://") ? first.trim() : null;
  }, "the model server's base URL", 20000, 100);
  return {
    baseUrl,
    requestsFile,
    /** Every request body the model received so far. */
    requests() {
      return fs.existsSync(requestsFile) ? JSON.parse(fs.readFileSync(requestsFile, "utf8")) : [];
    },
    stop: () => proc.stop(),
  };
}

const BASE_SETTINGS = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "security.workspace.trust.enabled": false,
  "files.hotExit": "off",
  "files.autoSave": "off",
  "git.enabled": false,
  "chat.disableAIFeatures": true,
  "window.restoreWindows": "none",
};

/** code-server on a free port with its own user-data dir and the shared extensions dir. */
export async function startCodeServer(dir, settings, extraEnv = {}) {
  if (!fs.existsSync(CODE_SERVER)) throw new Error(`code-server is not installed in ${CACHE}: run client-vscode/e2e/install.sh`);
  const installed = fs.existsSync(EXTENSIONS_DIR) && fs.readdirSync(EXTENSIONS_DIR).some((d) => d.startsWith(`${EXTENSION_ID}-`));
  if (!installed) throw new Error(`the extension is not installed in ${EXTENSIONS_DIR}: run client-vscode/e2e/run.sh (it packages and installs the .vsix)`);
  const port = await freePort();
  const userData = path.join(dir, "user-data");
  const home = path.join(dir, "home");
  // Machine-scoped settings (agentls.serverCommand is machine-overridable) are read from the
  // remote side's Machine/settings.json in code-server, the rest from User/settings.json.
  const text = JSON.stringify({ ...BASE_SETTINGS, ...settings }, null, 1);
  writeFiles(userData, { "User/settings.json": text, "Machine/settings.json": text });
  for (const sub of ["tmp", "config", "data", "cache"]) fs.mkdirSync(path.join(home, sub), { recursive: true });
  const env = {
    ...process.env,
    PATH: `${NODE24_BIN}:${process.env.PATH}`,
    TMPDIR: path.join(home, "tmp"),
    XDG_CONFIG_HOME: path.join(home, "config"),
    XDG_DATA_HOME: path.join(home, "data"),
    XDG_CACHE_HOME: path.join(home, "cache"),
    OPENAI_API_KEY: "e2e-not-a-secret",
    ...extraEnv,
  };
  delete env.NODE_OPTIONS;
  delete env.NODE_TEST_CONTEXT; // node:test's marker would make any node child a test worker
  const args = [
    "--auth", "none", "--bind-addr", `127.0.0.1:${port}`, "--disable-telemetry", "--disable-update-check",
    "--disable-workspace-trust", "--disable-getting-started-override",
    "--user-data-dir", userData, "--extensions-dir", EXTENSIONS_DIR,
  ];
  const logFile = path.join(dir, "code-server.log");
  const proc = startGroup(CODE_SERVER, args, { env, cwd: dir }, logFile);
  await waitFor(async () => {
    if (proc.child.exitedEarly) throw new Error(`code-server exited: ${fs.readFileSync(logFile, "utf8").slice(-2000)}`);
    const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
    return res && res.ok;
  }, "code-server /healthz", 60000, 200);
  return { port, userData, logFile, stop: () => proc.stop() };
}

/** Files of the VS Code logs folder whose path matches `pattern`. */
export function logFiles(userData, pattern) {
  const root = path.join(userData, "logs");
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root, { recursive: true })
    .map((rel) => path.join(root, rel))
    .filter((file) => pattern.test(file) && fs.statSync(file).isFile());
}

export function readLogs(userData, pattern) {
  return logFiles(userData, pattern).map((file) => fs.readFileSync(file, "utf8")).join("\n");
}

/** The extension host's log (activation lines). */
export const exthostLog = (userData) => readLogs(userData, /exthost\d*[/\\](remote)?exthost\.log$/);
/** Our output channel (the extension's log and the language server's stderr). */
export const outputLog = (userData) => readLogs(userData, /(agentls\.agentls[/\\].*|output_logging_[^/\\]+[/\\].*agentls.*)\.log$/i);

export async function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--no-first-run", "--no-default-browser-check"],
  });
}

function copyTree(from, to) {
  if (fs.existsSync(from)) fs.cpSync(from, to, { recursive: true, dereference: false, force: true });
}

/**
 * `scenario(name, {files, script, settings, env, viewport, timeoutMs}, async (s) => {...})`: a
 * node:test test with a fresh copy of the workspace (`files`), a fresh model serving `script`
 * (none: no model settings), VS Code settings on top of the harness's (the real server, dev,
 * ask, the model), and a fresh VS Code showing the workspace once agentls has activated.
 * `s` = {page, ws, model, cs, settings, dir}.
 */
export function scenarioRunner(test) {
  return function scenario(name, options, body) {
    test(name, { timeout: options.timeoutMs || 240000 }, async () => {
      const dir = path.join(STATE, slug(name));
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const ws = path.join(dir, "ws");
      writeFiles(ws, options.files || {});
      const stoppers = [];
      let page;
      let cs;
      let model;
      let browser;
      try {
        model = options.script ? await startModel(dir, options.script) : null;
        if (model) stoppers.push(model.stop);
        const settings = {
          "agentls.serverCommand": SERVER_COMMAND,
          "agentls.mode": "dev",
          "agentls.approval": "ask",
          ...(model ? { "agentls.model": "openai:e2e-model", "agentls.baseUrl": model.baseUrl } : {}),
          ...(options.settings || {}),
        };
        cs = await startCodeServer(dir, settings, options.env || {});
        stoppers.push(cs.stop);
        browser = await launchBrowser();
        stoppers.push(() => browser.close());
        const context = await browser.newContext({ viewport: options.viewport || { width: 1400, height: 900 } });
        await context.tracing.start({ screenshots: true, snapshots: true });
        stoppers.push(() => context.tracing.stop()); // kept only on failure (below)
        page = await context.newPage();
        const consoleFile = path.join(dir, "browser-console.log");
        page.on("console", (msg) => fs.appendFileSync(consoleFile, `[${msg.type()}] ${msg.text()}\n`));
        page.on("pageerror", (err) => fs.appendFileSync(consoleFile, `[pageerror] ${err.message}\n`));
        await page.goto(`http://127.0.0.1:${cs.port}/?folder=${encodeURIComponent(ws)}`, { waitUntil: "domcontentloaded", timeout: 60000 });
        await page.locator(".monaco-workbench").waitFor({ timeout: 90000 });
        await waitFor(() => exthostLog(cs.userData).includes(EXTENSION_ID), "the extension host to activate agentls", 60000);
        await body({ page, ws, model, cs, settings, dir });
      } catch (error) {
        const out = path.join(ARTIFACTS, slug(name));
        fs.rmSync(out, { recursive: true, force: true });
        fs.mkdirSync(out, { recursive: true });
        if (page) {
          await page.screenshot({ path: path.join(out, "screenshot.png"), timeout: 10000 }).catch(() => {});
          // e2e/node_modules/.bin/playwright-core show-trace trace.zip: every step with DOM snapshots and screenshots
          await page.context().tracing.stop({ path: path.join(out, "trace.zip") }).catch(() => {});
        }
        if (cs) copyTree(path.join(cs.userData, "logs"), path.join(out, "vscode-logs"));
        for (const file of ["model-script.json", "model-requests.json", "model-server.log", "code-server.log", "browser-console.log"]) {
          copyTree(path.join(dir, file), path.join(out, file));
        }
        copyTree(ws, path.join(out, "workspace"));
        fs.writeFileSync(path.join(out, "error.txt"), `${error.stack || error}\n`);
        // CI keeps only the console: what the run did, in a few lines, beside the error.
        let requests = "?";
        try { requests = model ? model.requests().length : 0; } catch {}
        const ours = cs ? outputLog(cs.userData).split("\n").filter(Boolean).slice(-25) : [];
        console.error(`--- ${name}: ${requests} model request(s); the last lines of the agentls output channel:\n${ours.join("\n")}\n---`);
        error.message += `\n  artifacts: ${path.relative(process.cwd(), out)}`;
        throw error;
      } finally {
        for (const stop of stoppers.reverse()) await Promise.resolve().then(stop).catch(() => {});
      }
    });
  };
}
