/**
 * The settings, read in one place (DESIGN §5, §8): `readConfig` turns the `agentls`
 * configuration section into a checked AgentConfig (a bad value falls back to its default
 * and is reported; the checks mirror server/agentls/settings.py); `serverSettings` is the
 * one object the server gets, both as `initializationOptions` and as the answer to
 * `workspace/configuration` and in `workspace/didChangeConfiguration` — in an untrusted
 * workspace with `mode` forced to `read-only`, `shellSandbox` never `none`, and
 * `mcpServers` the user's own (global) value only: the workspace's servers are commands
 * the workspace ships, which is what trust guards.
 * `needsRestart` names the settings the server reads only at start.
 * Must not know: VS Code (it is handed a `get`, so the unit tests use plain objects).
 */

import type { AgentConfig } from "./ctx";
import {
  APPROVALS,
  MODES,
  type McpServerEntry,
  SHELL_SANDBOXES,
  TOOL_PROTOCOLS,
  type Approval,
  type Mode,
  type ShellSandbox,
  type ToolProtocol,
} from "./protocol";
import type { AutoApproveRules } from "./ctx";

export const DEFAULTS: Readonly<AgentConfig> = Object.freeze({
  model: "local",
  baseUrl: null,
  apiKeyEnv: "OPENAI_API_KEY",
  toolProtocol: "auto",
  mode: "dev",
  approval: "ask",
  maxSteps: 30,
  navigation: true,
  serverCommand: "",
  proposalTimeoutS: 600,
  indexJobs: 0,
  indexCache: true,
  searchUrl: null,
  webAllow: Object.freeze([]),
  webDeny: Object.freeze([]),
  webMaxBytes: 2_000_000,
  webTimeoutS: 20,
  shellSandbox: "auto",
  mcpServers: Object.freeze({}),
  autoApprove: Object.freeze({ tools: [], paths: [], commands: [] }),
  autoApproveDeny: Object.freeze({ tools: [], paths: [], commands: [] }),
  rules: true,
});

/** DESIGN §9 auto-approve rules: `{tools, paths, commands}`, each a list of strings. */
function approveRules(v: unknown): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  return Object.entries(v).every(([k, list]) => ["tools", "paths", "commands"].includes(k) && Array.isArray(list) && list.every((x) => typeof x === "string"));
}
function rulesOf(v: AutoApproveRules): AutoApproveRules {
  return { tools: [...(v.tools ?? [])], paths: [...(v.paths ?? [])], commands: [...(v.commands ?? [])] };
}

/** What `vscode.workspace.getConfiguration("agentls")` offers (and a test's object). */
export interface SettingsSource {
  get<T>(key: string): T | undefined;
  /** where a value comes from: `globalValue` is the user's own setting */
  inspect?<T>(key: string): { globalValue?: T; workspaceValue?: T } | undefined;
}

export interface ReadResult {
  config: AgentConfig;
  problems: string[];
}

/**
 * The settings from `source`. `trusted: false` (an untrusted workspace) reads `mcpServers`
 * from the user's own settings only, never from the workspace's.
 */
export function readConfig(source: SettingsSource, trusted = true): ReadResult {
  const problems: string[] = [];
  const read = (key: keyof AgentConfig): unknown =>
    key === "mcpServers" && !trusted ? source.inspect?.<unknown>(key)?.globalValue : source.get<unknown>(key);
  const pick = <K extends keyof AgentConfig>(key: K, ok: (v: unknown) => boolean, expected: string): AgentConfig[K] => {
    const value = read(key);
    if (value === undefined) return DEFAULTS[key];
    if (ok(value)) return value as AgentConfig[K];
    problems.push(`agentls.${key}: ${JSON.stringify(value)} is not ${expected}; using ${JSON.stringify(DEFAULTS[key])}`);
    return DEFAULTS[key];
  };
  const isString = (v: unknown) => typeof v === "string";
  const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
  const intIn = (lo: number, hi: number) => (v: unknown) => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;
  const oneOf = <T>(all: readonly T[]) => [(v: unknown) => all.includes(v as T), `one of ${all.join(", ")}`] as const;
  const hosts = (v: unknown) => Array.isArray(v) && v.every(isString);
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  // each entry an object (settings.py checks each one and reports a bad entry itself)
  const servers = (v: unknown) => isObject(v) && Object.values(v).every(isObject);
  // an empty URL means "not set" (null), as the settings editor cannot clear to null
  const url = (v: string | null) => (typeof v === "string" && v.trim() === "" ? null : v);
  const baseUrl = pick("baseUrl", (v) => v === null || isString(v), "a URL");
  const searchUrl = pick("searchUrl", (v) => v === null || v === "" || (isString(v) && /^https?:\/\/\S+$/i.test(v)), "an http(s) URL");
  const config: AgentConfig = {
    model: pick("model", (v) => isString(v) && v.trim() !== "", "a model name"),
    baseUrl: url(baseUrl),
    apiKeyEnv: pick("apiKeyEnv", (v) => isString(v) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v), "an environment variable name"),
    toolProtocol: pick("toolProtocol", ...oneOf<ToolProtocol>(TOOL_PROTOCOLS)),
    mode: pick("mode", ...oneOf<Mode>(MODES)),
    approval: pick("approval", ...oneOf<Approval>(APPROVALS)),
    maxSteps: pick("maxSteps", intIn(1, 1000), "an integer from 1 to 1000"),
    navigation: pick("navigation", (v) => typeof v === "boolean", "true or false"),
    serverCommand: pick("serverCommand", isString, "a command line"),
    proposalTimeoutS: pick("proposalTimeoutS", (v) => isNumber(v) && v > 0, "a positive number"),
    indexJobs: pick("indexJobs", intIn(0, 64), "an integer from 0 to 64"),
    indexCache: pick("indexCache", (v) => typeof v === "boolean", "true or false"),
    searchUrl: url(searchUrl),
    webAllow: pick("webAllow", hosts, "a list of host names"),
    webDeny: pick("webDeny", hosts, "a list of host patterns"),
    webMaxBytes: pick("webMaxBytes", intIn(1024, 100_000_000), "an integer from 1024 to 100000000"),
    webTimeoutS: pick("webTimeoutS", (v) => isNumber(v) && v > 0 && v <= 300, "a number above 0, at most 300"),
    shellSandbox: pick("shellSandbox", ...oneOf<ShellSandbox>(SHELL_SANDBOXES)),
    mcpServers: pick("mcpServers", servers, "an object of named MCP server entries"),
    autoApprove: rulesOf(pick("autoApprove", approveRules, "{tools, paths, commands} lists")),
    autoApproveDeny: rulesOf(pick("autoApproveDeny", approveRules, "{tools, paths, commands} lists")),
    rules: pick("rules", (v) => typeof v === "boolean", "true or false"),
  };
  return { config, problems };
}

/** The server's settings object (DESIGN §5): initializationOptions = workspace/configuration. */
export type ServerSettings = Omit<AgentConfig, "serverCommand"> & {
  /** DESIGN §9: auto-approve rules never apply in a workspace the user has not trusted */
  workspaceTrusted: boolean;
};

export function serverSettings(config: AgentConfig, trusted: boolean): ServerSettings {
  return {
    model: config.model,
    baseUrl: config.baseUrl,
    apiKeyEnv: config.apiKeyEnv,
    toolProtocol: config.toolProtocol,
    mode: trusted ? config.mode : "read-only",
    approval: config.approval,
    maxSteps: config.maxSteps,
    navigation: config.navigation,
    proposalTimeoutS: config.proposalTimeoutS,
    indexJobs: config.indexJobs,
    indexCache: config.indexCache,
    searchUrl: config.searchUrl,
    webAllow: [...config.webAllow],
    webDeny: [...config.webDeny],
    webMaxBytes: config.webMaxBytes,
    webTimeoutS: config.webTimeoutS,
    // Untrusted: read-only already offers no shell tools, but "none" (no OS sandbox at all)
    // is never sent from a workspace the user has not trusted — a second guard, so a
    // workspace-level setting or a later mode bug cannot run unconfined commands there.
    shellSandbox: !trusted && config.shellSandbox === "none" ? "auto" : config.shellSandbox,
    // read from the user's settings only when untrusted (readConfig)
    mcpServers: JSON.parse(JSON.stringify(config.mcpServers)) as Record<string, McpServerEntry>,
    // never auto-approve in a workspace the user has not trusted (DESIGN §9)
    autoApprove: trusted ? rulesOf(config.autoApprove) : { tools: [], paths: [], commands: [] },
    autoApproveDeny: rulesOf(config.autoApproveDeny),
    rules: config.rules,
    workspaceTrusted: trusted,
  };
}

/**
 * Settings the running server cannot take over (lsp/features/lifecycle.py applies a
 * didChangeConfiguration to the settings that runs, tool calls and the model cache read
 * each time): how it is started, its environment (the key's variable name), `navigation`
 * (capabilities are fixed at initialize) and `indexJobs`/`indexCache` (read once, when a
 * workspace folder's index is created).
 */
export const RESTART_SETTINGS = ["serverCommand", "navigation", "apiKeyEnv", "indexJobs", "indexCache"] as const;

export function needsRestart(affects: (key: string) => boolean): string[] {
  return RESTART_SETTINGS.map((k) => `agentls.${k}`).filter((k) => affects(k));
}

/** The server process's environment: ours, plus the API key under its configured name. */
export function serverEnvironment(
  base: Record<string, string | undefined>,
  apiKeyEnv: string,
  apiKey: string | undefined,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  if (apiKey) env[apiKeyEnv] = apiKey;
  return env;
}

/** A picker's options with the configured one first (it is the active item: Enter keeps it). */
export function settingFirst<T extends string>(all: readonly T[], configured: T): T[] {
  return all.includes(configured) ? [configured, ...all.filter((v) => v !== configured)] : [...all];
}
