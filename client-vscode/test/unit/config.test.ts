import * as assert from "node:assert/strict";
import { DEFAULTS, needsRestart, readConfig, serverEnvironment, serverSettings, settingFirst } from "../../src/config";
import { MODES } from "../../src/protocol";

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

  it("initializationOptions = the configuration answer: the server's keys only", () => {
    const { config } = readConfig(source({ model: "openai:x", serverCommand: "/x serve", navigation: false }));
    const settings = serverSettings(config, true);
    assert.deepEqual(Object.keys(settings).sort(), [
      "apiKeyEnv",
      "approval",
      "baseUrl",
      "maxSteps",
      "mode",
      "model",
      "navigation",
      "proposalTimeoutS",
    ]);
    assert.equal(settings.navigation, false);
    assert.equal(settings.mode, "dev");
    assert.equal((settings as unknown as Record<string, unknown>).serverCommand, undefined);
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

  it("names the settings that need a restart", () => {
    const changed = new Set(["agentls.navigation", "agentls.model"]);
    assert.deepEqual(needsRestart((k) => changed.has(k)), ["agentls.navigation"]);
    assert.deepEqual(needsRestart((k) => k === "agentls.serverCommand"), ["agentls.serverCommand"]);
    assert.deepEqual(needsRestart(() => false), []);
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
});
