import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { AgentEventNotification, AgentRun, Commands, isRunProgressToken, Schemes } from "../../src/protocol";

describe("protocol", () => {
  it("tells a run's progress token from the indexing one", () => {
    assert.equal(isRunProgressToken("agentls-run-1a2b"), true);
    assert.equal(isRunProgressToken("agentls-index-0badf00d"), false);
    assert.equal(isRunProgressToken(42), false);
    assert.equal(isRunProgressToken("other-token"), false);
  });

  it("names the agent methods as the server does", () => {
    assert.equal(AgentRun.method, "agent/run");
    assert.equal(AgentEventNotification.method, "agent/event");
  });

  it("declares in package.json every command id of protocol.ts, and no other", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as {
      contributes: { commands: { command: string }[]; menus: Record<string, { command: string; when?: string }[]> };
    };
    const declared: string[] = pkg.contributes.commands.map((c) => c.command).sort();
    const ids: string[] = Object.values(Commands);
    assert.deepEqual(declared, ids.sort());
    for (const items of Object.values(pkg.contributes.menus)) {
      for (const item of items) assert.ok(declared.includes(item.command), `menu names unknown ${item.command}`);
    }
    const title = pkg.contributes.menus["editor/title"].filter((m) => m.when?.includes(`resourceScheme == ${Schemes.proposal}`));
    assert.deepEqual(
      title.map((m) => m.command),
      [Commands.acceptProposal, Commands.rejectProposal] as string[],
    );
  });
});
