import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULTS, needsRestart, readConfig, serverEnvironment, serverSettings, settingFirst } from "../../src/config";
import { MODES, SHELL_SANDBOXES, TOOL_PROTOCOLS } from "../../src/protocol";

const source = (values: Record<string, unknown>) => ({ get: <T>(key: string) => values[key] as T | undefined });

describe("settings", () => {
  it("defaults when nothing is set", () => {
    const { config, problems } = readConfig(source({}));
    assert.deepEqual(config, DEFAULTS);
    assert.deepEqual(problems, []);
  });

  it("reads valid values", () => {
    const { config } = readConfig(
      source({ model: "openai:x", baseUrl: "http://127.0.0.1:9/v1", mode: "full", approval: "never", maxSteps: 5, navigation: false }),
    );
    assert.equal(config.model, "openai:x");
    assert.equal(config.baseUrl, "http://127.0.0.1:9/v1");
    assert.equal(config.mode, "full");
    assert.equal(config.approval, "never");
    assert.equal(config.maxSteps, 5);
    assert.equal(config.navigation, false);
  });

  it("falls back to the default for a bad value and reports it", () => {
    const { config, problems } = readConfig(source({ mode: "yolo", maxSteps: 2.5, apiKeyEnv: "MY KEY", baseUrl: "" }));
    assert.equal(config.mode, "dev");
    assert.equal(config.maxSteps, 30);
    assert.equal(config.apiKeyEnv, "OPENAI_API_KEY");
    assert.equal(config.baseUrl, null); // empty = the SDK's default
    assert.equal(problems.length, 3);
    assert.ok(problems[0].includes("agentls.apiKeyEnv") || problems.some((p) => p.includes("agentls.mode: \"yolo\"")));
  });

  it("reads the server's other settings", () => {
    const { config, problems } = readConfig(
      source({
        toolProtocol: "json",
        indexJobs: 4,
        indexCache: false,
        searchUrl: "HTTP://127.0.0.1:8888/search",
        webAllow: ["docs.internal", "*.python.org"],
        webDeny: ["*.example.com"],
        webMaxBytes: 1024,
        webTimeoutS: 300,
        shellSandbox: "landlock",
      }),
    );
    assert.deepEqual(problems, []);
    assert.equal(config.toolProtocol, "json");
    assert.equal(config.indexJobs, 4);
    assert.equal(config.indexCache, false);
    assert.equal(config.searchUrl, "HTTP://127.0.0.1:8888/search");
    assert.deepEqual(config.webAllow, ["docs.internal", "*.python.org"]);
    assert.deepEqual(config.webDeny, ["*.example.com"]);
    assert.equal(config.webMaxBytes, 1024);
    assert.equal(config.webTimeoutS, 300);
    assert.equal(config.shellSandbox, "landlock");
    assert.equal(readConfig(source({ searchUrl: "" })).config.searchUrl, null); // empty = not set
  });

  it("checks the server's other settings as settings.py does, one problem each", () => {
    const bad: Record<string, unknown> = {
      toolProtocol: "xml",
      indexJobs: 65,
      indexCache: "yes",
      searchUrl: "ftp://search.example",
      webAllow: ["ok", 3],
      webDeny: "*.example.com",
      webMaxBytes: 1023,
      webTimeoutS: 0,
      shellSandbox: "docker",
    };
    const { config, problems } = readConfig(source(bad));
    for (const key of Object.keys(bad)) {
      assert.deepEqual(config[key as keyof typeof config], DEFAULTS[key as keyof typeof DEFAULTS], key);
      assert.equal(problems.filter((p) => p.startsWith(`agentls.${key}: `)).length, 1, key);
    }
    assert.equal(problems.length, Object.keys(bad).length);
    const edges = readConfig(source({ indexJobs: -1, webMaxBytes: 100_000_001, webTimeoutS: 300.5, searchUrl: "http://" }));
    assert.equal(edges.problems.length, 4);
    assert.equal(edges.config.indexJobs, 0);
    assert.equal(edges.config.searchUrl, null);
  });

  it("initializationOptions = the configuration answer: the server's keys only", () => {
    const { config } = readConfig(source({ model: "openai:x", serverCommand: "/x serve", navigation: false }));
    const settings = serverSettings(config, true);
    // the §9 settings the server of this tree may not read yet are sent all the same
    const ahead = ["autoApprove", "autoApproveDeny", "rules"].filter((k) => !serverKeys().includes(k));
    assert.deepEqual(Object.keys(settings).filter((k) => !ahead.includes(k)).sort(), serverKeys().sort());
    assert.deepEqual(settings.autoApprove, { tools: [], paths: [], commands: [] });
    assert.equal(settings.rules, true);
    assert.equal(settings.workspaceTrusted, true);
    const untrusted = serverSettings(readConfig(source({ autoApprove: { paths: ["**"] } })).config, false);
    assert.equal(untrusted.workspaceTrusted, false);
    assert.deepEqual(untrusted.autoApprove, { tools: [], paths: [], commands: [] }, "never auto-approve in an untrusted workspace");
    assert.deepEqual(serverSettings(readConfig(source({ autoApprove: { paths: ["tests/**"] } })).config, true).autoApprove.paths, ["tests/**"]);
    assert.equal(settings.navigation, false);
    assert.equal(settings.mode, "dev");
    assert.equal((settings as unknown as Record<string, unknown>).serverCommand, undefined);
    assert.deepEqual(settings.webAllow, []);
    assert.equal(settings.searchUrl, null);
  });

  it("an untrusted workspace forces read-only whatever the setting", () => {
    for (const mode of MODES) {
      const { config } = readConfig(source({ mode }));
      assert.equal(serverSettings(config, false).mode, "read-only");
      assert.equal(serverSettings(config, true).mode, mode);
    }
    const { config } = readConfig(source({ navigation: true }));
    assert.equal(serverSettings(config, false).navigation, true); // navigation stays
  });

  it("an untrusted workspace never gets shellSandbox none; the other sandboxes stay", () => {
    for (const shellSandbox of SHELL_SANDBOXES) {
      const { config } = readConfig(source({ shellSandbox }));
      assert.equal(serverSettings(config, true).shellSandbox, shellSandbox);
      assert.equal(serverSettings(config, false).shellSandbox, shellSandbox === "none" ? "auto" : shellSandbox);
    }
  });

  it("reads mcpServers and checks that each entry is an object", () => {
    const servers = {
      filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
      remote: { url: "http://127.0.0.1:8000/mcp", headers: { Authorization: "Bearer t" }, permissions: ["network"] },
    };
    const { config, problems } = readConfig(source({ mcpServers: servers }));
    assert.deepEqual(problems, []);
    assert.deepEqual(serverSettings(config, true).mcpServers, servers);
    for (const bad of [[servers.filesystem], { filesystem: "npx" }, "npx"]) {
      const read = readConfig(source({ mcpServers: bad }));
      assert.deepEqual(read.config.mcpServers, {});
      assert.equal(read.problems.length, 1);
      assert.ok(read.problems[0].startsWith("agentls.mcpServers: "), read.problems[0]);
    }
  });

  it("an untrusted workspace sends only the user's own MCP servers, never the workspace's", () => {
    const mine = { mine: { command: "my-server" } };
    const theirs = { theirs: { command: "./run-me.sh" } };
    const layered = {
      get: <T>(key: string) => (key === "mcpServers" ? { ...mine, ...theirs } : undefined) as T | undefined,
      inspect: <T>(key: string) => (key === "mcpServers" ? { globalValue: mine as T, workspaceValue: theirs as T } : undefined),
    };
    assert.deepEqual(serverSettings(readConfig(layered, true).config, true).mcpServers, { ...mine, ...theirs });
    assert.deepEqual(serverSettings(readConfig(layered, false).config, false).mcpServers, mine);
    const workspaceOnly = { get: layered.get, inspect: <T>() => ({ workspaceValue: theirs as T }) };
    assert.deepEqual(readConfig(workspaceOnly, false).config.mcpServers, {});
    assert.deepEqual(readConfig({ get: layered.get }, false).config.mcpServers, {}); // no inspect: nothing
  });

  it("names the settings that need a restart", () => {
    const changed = new Set(["agentls.navigation", "agentls.model"]);
    assert.deepEqual(needsRestart((k) => changed.has(k)), ["agentls.navigation"]);
    assert.deepEqual(needsRestart((k) => k === "agentls.serverCommand"), ["agentls.serverCommand"]);
    assert.deepEqual(needsRestart(() => false), []);
    // the index is made once per workspace folder: its settings take a restart
    const index = new Set(["agentls.indexJobs", "agentls.indexCache", "agentls.webAllow"]);
    assert.deepEqual(needsRestart((k) => index.has(k)), ["agentls.indexJobs", "agentls.indexCache"]);
    // the server reads these on each run or tool call: no restart
    const live = ["toolProtocol", "searchUrl", "webAllow", "webDeny", "webMaxBytes", "webTimeoutS", "shellSandbox", "mode", "model", "mcpServers"];
    assert.deepEqual(needsRestart((k) => live.map((n) => `agentls.${n}`).includes(k)), []);
  });

  it("hands the API key to the server under the configured name", () => {
    const env = serverEnvironment({ PATH: "/bin", HOME: undefined }, "MY_KEY", "sk-1");
    assert.deepEqual(env, { PATH: "/bin", MY_KEY: "sk-1" });
    assert.deepEqual(serverEnvironment({ PATH: "/bin" }, "MY_KEY", undefined), { PATH: "/bin" });
  });

  it("puts the configured choice first so Enter keeps it", () => {
    assert.deepEqual(settingFirst(MODES, "ci"), ["ci", "read-only", "dev", "full"]);
    assert.deepEqual(settingFirst(MODES, "read-only"), ["read-only", "dev", "ci", "full"]);
  });

  it("declares in package.json each server setting, with settings.py's default and choices", () => {
    const props = packageSettings();
    const server = serverKeys();
    // DESIGN §9 settings the extension declares before the server reads them (another branch adds them)
    const ahead = ["autoApprove", "autoApproveDeny", "rules"].filter((k) => !server.includes(k));
    // autoApprove.tools / .paths / .commands: three lists in the Settings UI, one object to the server
    const declared = [...new Set(Object.keys(props).map((k) => k.replace(/^agentls\./, "").replace(/^(autoApprove(?:Deny)?)\..*$/, "$1")))]
      .filter((k) => k !== "serverCommand" && k !== "trace.server" && !ahead.includes(k));
    // workspaceTrusted is VS Code's trust, sent by the extension, not a setting of the user's
    assert.deepEqual(declared.sort(), server.filter((k) => k !== "workspaceTrusted").sort());
    for (const key of [...declared, "serverCommand"]) {
      if (key.startsWith("autoApprove")) continue; // checked below, list by list
      // a URL setting is a plain string in the Settings UI: "" there is null (no URL) to the server
      const declaredDefault = props[`agentls.${key}`].default === "" && key.endsWith("Url") ? null : props[`agentls.${key}`].default;
      assert.deepEqual(declaredDefault, DEFAULTS[key as keyof typeof DEFAULTS], key);
    }
    assert.equal((props["agentls.baseUrl"] as { type?: unknown }).type, "string", "baseUrl is editable in the Settings UI");
    for (const key of ["autoApprove", "autoApproveDeny"]) {
      for (const list of ["tools", "paths", "commands"]) {
        const shape = props[`agentls.${key}.${list}`] as { type?: string; items?: { type: string }; default?: unknown };
        assert.equal(shape.type, "array", `${key}.${list} is a list the Settings UI edits`);
        assert.equal(shape.items?.type, "string");
        assert.deepEqual(shape.default, []);
      }
    }
    assert.equal((props["agentls.rules"] as { type?: unknown }).type, "boolean");
    assert.deepEqual(props["agentls.approval"].enum, ["ask", "auto", "never", "plan"]);
    assert.deepEqual(props["agentls.mode"].enum, [...MODES]);
    assert.deepEqual(props["agentls.toolProtocol"].enum, [...TOOL_PROTOCOLS]);
    assert.deepEqual(props["agentls.shellSandbox"].enum, [...SHELL_SANDBOXES]);
    assert.deepEqual([props["agentls.indexJobs"].minimum, props["agentls.indexJobs"].maximum], [0, 64]);
    assert.deepEqual([props["agentls.webMaxBytes"].minimum, props["agentls.webMaxBytes"].maximum], [1024, 100_000_000]);
    assert.equal(props["agentls.webTimeoutS"].maximum, 300);
    assert.deepEqual(restricted(), [...restricted()].filter((k) => k.startsWith("agentls.")));
    assert.ok(restricted().includes("agentls.mcpServers"), "untrusted workspaces must not use the workspace's MCP servers");
  });
});

/** The keys of the server's Settings (server/agentls/settings.py): each field's alias, else its name. */
function serverKeys(): string[] {
  const source = fs.readFileSync(path.join(__dirname, "../../../server/agentls/settings.py"), "utf8");
  const body = source.slice(source.indexOf("class Settings("), source.indexOf("\ndef parse_settings"));
  const keys = [...body.matchAll(/^ {4}(\w+): [^\n]*$/gm)].map((m) => /alias="(\w+)"/.exec(m[0])?.[1] ?? m[1]);
  assert.ok(keys.length >= 17, `read ${keys.length} settings from settings.py`);
  return keys;
}

function restricted(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as {
    capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  };
  return pkg.capabilities.untrustedWorkspaces.restrictedConfigurations;
}

function packageSettings(): Record<string, { default?: unknown; enum?: unknown[]; minimum?: number; maximum?: number }> {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  };
  return pkg.contributes.configuration.properties;
}
