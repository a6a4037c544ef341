import * as assert from "node:assert/strict";
import { resolveServerCommand, type ResolveInput } from "../../src/server/resolve";

function input(files: string[], over: Partial<ResolveInput> = {}): ResolveInput {
  const set = new Set(files);
  return {
    setting: "",
    folders: ["/ws"],
    platform: "linux",
    trusted: true,
    env: { PATH: "/usr/local/bin:/usr/bin" },
    isExecutable: (f) => set.has(f),
    ...over,
  };
}

describe("resolveServerCommand", () => {
  it("uses the setting first, split shell-like, its program looked up on PATH", () => {
    const r = resolveServerCommand(input(["/usr/bin/python3", "/ws/.venv/bin/agentls"], { setting: "python3 -m agentls.cli serve" }));
    assert.deepEqual(r, {
      ok: true,
      command: "/usr/bin/python3",
      args: ["-m", "agentls.cli", "serve"],
      source: "setting",
      description: "agentls.serverCommand: python3 -m agentls.cli serve",
    });
  });

  it("takes an absolute path from the setting as it is", () => {
    const r = resolveServerCommand(input(["/opt/my env/bin/agentls"], { setting: `"/opt/my env/bin/agentls" serve` }));
    assert.ok(r.ok);
    assert.equal(r.command, "/opt/my env/bin/agentls");
    assert.deepEqual(r.args, ["serve"]);
  });

  it("does not fall back when the setting names a missing program, and says so", () => {
    const r = resolveServerCommand(input(["/ws/.venv/bin/agentls"], { setting: "/nope/agentls serve" }));
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.message.includes(`"/nope/agentls" is not an executable file`));
    assert.ok(!r.ok && r.message.includes("agentls.serverCommand"));
  });

  it("reports a setting it cannot split", () => {
    const r = resolveServerCommand(input([], { setting: `"/a b/agentls serve` }));
    assert.ok(!r.ok && /cannot be read: unterminated double quote/.test(r.message));
  });

  it("then the workspace's .venv agentls with `serve`", () => {
    const r = resolveServerCommand(input(["/ws/.venv/bin/agentls", "/usr/bin/agentls"]));
    assert.ok(r.ok);
    assert.equal(r.command, "/ws/.venv/bin/agentls");
    assert.deepEqual(r.args, ["serve"]);
    assert.equal(r.source, "venv");
  });

  it("looks in every workspace folder", () => {
    const r = resolveServerCommand(input(["/b/.venv/bin/agentls"], { folders: ["/a", "/b"] }));
    assert.ok(r.ok && r.command === "/b/.venv/bin/agentls");
  });

  it("uses .venv\\Scripts\\agentls.exe on Windows", () => {
    const r = resolveServerCommand(
      input(["C:\\ws\\.venv\\Scripts\\agentls.exe"], { platform: "win32", folders: ["C:\\ws"], env: { Path: "C:\\Windows" } }),
    );
    assert.ok(r.ok);
    assert.equal(r.command, "C:\\ws\\.venv\\Scripts\\agentls.exe");
  });

  it("then agentls on PATH", () => {
    const r = resolveServerCommand(input(["/usr/bin/agentls"]));
    assert.ok(r.ok);
    assert.equal(r.command, "/usr/bin/agentls");
    assert.equal(r.source, "path");
  });

  it("finds agentls.exe through PATHEXT on Windows", () => {
    const r = resolveServerCommand(
      input(["C:\\py\\Scripts\\agentls.exe"], { platform: "win32", folders: ["C:\\ws"], env: { Path: "C:\\py\\Scripts", PATHEXT: ".COM;.EXE" } }),
    );
    assert.ok(r.ok && r.command === "C:\\py\\Scripts\\agentls.exe");
  });

  it("does not run the workspace's .venv in an untrusted workspace", () => {
    const files = ["/ws/.venv/bin/agentls"];
    const r = resolveServerCommand(input(files, { trusted: false }));
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.message.includes("untrusted"));
    const onPath = resolveServerCommand(input([...files, "/usr/bin/agentls"], { trusted: false }));
    assert.ok(onPath.ok && onPath.command === "/usr/bin/agentls");
  });

  it("when nothing is found: what was tried, the install command and the setting", () => {
    const r = resolveServerCommand(input([]));
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.deepEqual(r.tried, ["/ws/.venv/bin/agentls", "agentls on PATH"]);
    assert.ok(r.message.includes("python3 -m venv .venv && .venv/bin/pip install -e"), r.message);
    assert.ok(r.message.includes("agentls.serverCommand"));
    assert.ok(r.message.includes("/ws/.venv/bin/agentls"));
  });
});
