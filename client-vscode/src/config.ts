/**
 * The settings, read in one place (DESIGN §5, §8): `readConfig` turns the `agentls`
 * configuration section into a checked AgentConfig (a bad value falls back to its default
 * and is reported); `serverSettings` is the one object the server gets, both as
 * `initializationOptions` and as the answer to `workspace/configuration` and in
 * `workspace/didChangeConfiguration` — in an untrusted workspace with `mode` forced to
 * `read-only`. `needsRestart` names the settings the server reads only at start.
 * Must not know: VS Code (it is handed a `get`, so the unit tests use plain objects).
 */

import type { AgentConfig } from "./ctx";
import { APPROVALS, MODES, type Approval, type Mode } from "./protocol";

export const DEFAULTS: AgentConfig = {
  model: "local",
  baseUrl: null,
  apiKeyEnv: "OPENAI_API_KEY",
  mode: "dev",
  approval: "ask",
  maxSteps: 30,
  navigation: true,
  serverCommand: "",
  proposalTimeoutS: 600,
};

/** What `vscode.workspace.getConfiguration("agentls")` offers (and a test's object). */
export interface SettingsSource {
  get<T>(key: string): T | undefined;
}

export interface ReadResult {
  config: AgentConfig;
  problems: string[];
}

export function readConfig(source: SettingsSource): ReadResult {
  const problems: string[] = [];
  const pick = <K extends keyof AgentConfig>(key: K, ok: (v: unknown) => boolean, expected: string): AgentConfig[K] => {
    const value = source.get<unknown>(key);
    if (value === undefined) return DEFAULTS[key];
    if (ok(value)) return value as AgentConfig[K];
    problems.push(`agentls.${key}: ${JSON.stringify(value)} is not ${expected}; using ${JSON.stringify(DEFAULTS[key])}`);
    return DEFAULTS[key];
  };
  const isString = (v: unknown) => typeof v === "string";
  const baseUrl = pick("baseUrl", (v) => v === null || typeof v === "string", "a URL");
  const config: AgentConfig = {
    model: pick("model", (v) => typeof v === "string" && v.trim() !== "", "a model name"),
    baseUrl: typeof baseUrl === "string" && baseUrl.trim() === "" ? null : baseUrl,
    apiKeyEnv: pick("apiKeyEnv", (v) => typeof v === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v), "an environment variable name"),
    mode: pick("mode", (v) => MODES.includes(v as Mode), `one of ${MODES.join(", ")}`),
    approval: pick("approval", (v) => APPROVALS.includes(v as Approval), `one of ${APPROVALS.join(", ")}`),
    maxSteps: pick("maxSteps", (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 1000, "an integer from 1 to 1000"),
    navigation: pick("navigation", (v) => typeof v === "boolean", "true or false"),
    serverCommand: pick("serverCommand", isString, "a command line"),
    proposalTimeoutS: pick("proposalTimeoutS", (v) => typeof v === "number" && v > 0, "a positive number"),
  };
  return { config, problems };
}

/** The server's settings object (DESIGN §5): initializationOptions = workspace/configuration. */
export type ServerSettings = Omit<AgentConfig, "serverCommand">;

export function serverSettings(config: AgentConfig, trusted: boolean): ServerSettings {
  return {
    model: config.model,
    baseUrl: config.baseUrl,
    apiKeyEnv: config.apiKeyEnv,
    mode: trusted ? config.mode : "read-only",
    approval: config.approval,
    maxSteps: config.maxSteps,
    navigation: config.navigation,
    proposalTimeoutS: config.proposalTimeoutS,
  };
}

/**
 * Settings the running server cannot take over: how it is started, its environment (the
 * key's variable name) and `navigation` (capabilities are fixed at initialize).
 */
export const RESTART_SETTINGS = ["serverCommand", "navigation", "apiKeyEnv"] as const;

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
