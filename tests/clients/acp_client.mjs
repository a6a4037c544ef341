// A scripted ACP client on the official TypeScript SDK (@agentclientprotocol/sdk, client side):
// it starts the agent command, plays the scenario's steps, answers the agent's requests
// (permission answers in order, fs/read_text_file from the scenario's unsaved buffers or the
// disk, fs/write_text_file recorded and saved) and prints everything that happened, in
// order, as one JSON object on stdout.
//
//   node acp_client.mjs SCENARIO.json   (tests/acp/harness.py writes the scenario)
//
// Scenario: {command: [..], env: {..}, clientCapabilities: {..} | null, buffers: {absPath: text},
//   permissions: ["allow_once" | "allow_always" | "reject_once" | "reject_always" | "cancel", ...],
//   steps: [{op: "initialize"} | {op: "new", cwd, mcpServers?} | {op: "load", cwd, sessionId?}
//     | {op: "prompt", text?, prompt?, cancelOn?: "tool_call" | "permission"}
//     | {op: "setMode", modeId} | {op: "setConfig", configId, value} | {op: "list", cwd}
//     | {op: "raw", method, params}]}
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream } from "@agentclientprotocol/sdk";

const scenario = JSON.parse(readFileSync(process.argv[2], "utf8"));
const log = [];
const answers = [...(scenario.permissions ?? [])];
let sessionId = null;
let cancelOn = null;
let ctxRef = null;

const child = spawn(scenario.command[0], scenario.command.slice(1), {
  env: { ...process.env, ...(scenario.env ?? {}) },
  stdio: ["pipe", "pipe", "inherit"],
});
const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

function cancelNow(reason) {
  if (cancelOn === reason && ctxRef && sessionId) {
    cancelOn = null;
    log.push({ type: "cancel", on: reason });
    ctxRef.notify("session/cancel", { sessionId });
  }
}

const app = client({ name: "agentls-test-client" })
  .onNotification("session/update", ({ params }) => {
    log.push({ type: "update", sessionId: params.sessionId, update: params.update });
    if (params.update.sessionUpdate === "tool_call") cancelNow("tool_call");
  })
  .onRequest("session/request_permission", async ({ params }) => {
    cancelNow("permission");
    const choice = answers.length ? answers.shift() : "reject_once";
    log.push({ type: "permission", request: params, answer: choice });
    if (choice === "cancel") return { outcome: { outcome: "cancelled" } };
    return { outcome: { outcome: "selected", optionId: choice } };
  })
  .onRequest("fs/read_text_file", async ({ params }) => {
    log.push({ type: "read", path: params.path });
    const buffers = scenario.buffers ?? {};
    if (params.path in buffers) return { content: buffers[params.path] };
    return { content: readFileSync(params.path, "utf8") };
  })
  .onRequest("fs/write_text_file", async ({ params }) => {
    log.push({ type: "write", path: params.path, content: params.content });
    writeFileSync(params.path, params.content);
    return {};
  });

async function call(ctx, op, method, params) {
  const started = Date.now();
  try {
    const result = await ctx.request(method, params);
    log.push({ type: "response", op, result, ms: Date.now() - started });
    return result;
  } catch (error) {
    log.push({ type: "response", op, error: { code: error.code, message: error.message, data: error.data } });
    return null;
  }
}

const timer = setTimeout(() => {
  log.push({ type: "timeout" });
  process.stdout.write(JSON.stringify({ log }) + "\n");
  child.kill("SIGKILL");
  process.exit(3);
}, scenario.timeoutMs ?? 60000);

await app.connectWith(stream, async (ctx) => {
  ctxRef = ctx;
  for (const step of scenario.steps) {
    if (step.op === "initialize") {
      const params = { protocolVersion: 1, clientInfo: { name: "agentls-test-client", version: "1" } };
      if (scenario.clientCapabilities !== null) params.clientCapabilities = scenario.clientCapabilities ?? {};
      await call(ctx, "initialize", "initialize", params);
    } else if (step.op === "new") {
      const result = await call(ctx, "new", "session/new", { cwd: step.cwd, mcpServers: step.mcpServers ?? [] });
      if (result) sessionId = result.sessionId;
    } else if (step.op === "load") {
      const id = step.sessionId ?? sessionId;
      const result = await call(ctx, "load", "session/load", { cwd: step.cwd, sessionId: id, mcpServers: [] });
      if (result) sessionId = id;
    } else if (step.op === "prompt") {
      cancelOn = step.cancelOn ?? null;
      const prompt = step.prompt ?? [{ type: "text", text: step.text }];
      await call(ctx, "prompt", "session/prompt", { sessionId, prompt });
    } else if (step.op === "setMode") {
      await call(ctx, "setMode", "session/set_mode", { sessionId, modeId: step.modeId });
    } else if (step.op === "setConfig") {
      await call(ctx, "setConfig", "session/set_config_option", { sessionId, configId: step.configId, value: step.value });
    } else if (step.op === "list") {
      await call(ctx, "list", "session/list", step.cwd ? { cwd: step.cwd } : {});
    } else if (step.op === "raw") {
      await call(ctx, "raw", step.method, step.params);
    } else if (step.op === "newClient") {
      // (reserved)
    }
  }
});
clearTimeout(timer);
process.stdout.write(JSON.stringify({ log, sessionId }) + "\n");
child.kill("SIGTERM");
process.exit(0);
