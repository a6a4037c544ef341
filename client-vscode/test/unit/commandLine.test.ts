import * as assert from "node:assert/strict";
import { CommandLineError, splitCommandLine } from "../../src/server/commandLine";

describe("splitCommandLine (agentls.serverCommand)", () => {
  const cases: [string, string[]][] = [
    ["agentls serve", ["agentls", "serve"]],
    ["  /opt/a/bin/agentls   serve  ", ["/opt/a/bin/agentls", "serve"]],
    [`"/home/me/my tools/agentls" serve`, ["/home/me/my tools/agentls", "serve"]],
    [`'/a b/agentls' serve --tcp`, ["/a b/agentls", "serve", "--tcp"]],
    [`/a\\ b/agentls serve`, ["/a b/agentls", "serve"]],
    [`python3 -m agentls.cli serve`, ["python3", "-m", "agentls.cli", "serve"]],
    [`x "a \\"q\\" b" 'c \\d'`, ["x", 'a "q" b', "c \\d"]],
    [`x ""`, ["x", ""]],
    [`x a"b c"d`, ["x", "ab cd"]],
    ["", []],
  ];
  for (const [line, argv] of cases) {
    it(`splits ${JSON.stringify(line)}`, () => assert.deepEqual(splitCommandLine(line, "linux"), argv));
  }

  it("keeps Windows backslashes as path separators", () => {
    assert.deepEqual(splitCommandLine(`C:\\tools\\agentls.exe serve`, "win32"), ["C:\\tools\\agentls.exe", "serve"]);
    assert.deepEqual(splitCommandLine(`"C:\\Program Files\\agentls\\agentls.exe" serve`, "win32"), [
      "C:\\Program Files\\agentls\\agentls.exe",
      "serve",
    ]);
  });

  it("rejects an unterminated quote", () => {
    assert.throws(() => splitCommandLine(`"/a b/agentls serve`, "linux"), CommandLineError);
    assert.throws(() => splitCommandLine(`'x`, "linux"), /single quote/);
  });
});
