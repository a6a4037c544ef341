/**
 * The entry point: activate() only wires — the log, the context (client, runs, proposals),
 * trust, commands, run progress, the status bar and the views — then starts the server
 * without waiting for it (activation stays cheap; requests wait for the start instead)
 * and logs how long activation took (`activated in 12.3 ms`; the e2e tests read it).
 */

import { performance } from "perf_hooks";
import * as vscode from "vscode";
import { registerCommands } from "./commands";
import { AgentContext } from "./context";
import { createLog } from "./log";
import { registerRunProgress } from "./runs/progress";
import { registerStatusBar } from "./runs/statusBar";
import { registerTrust } from "./trust";
import { registerViews } from "./views";

let context: AgentContext | undefined;

export function activate(extension: vscode.ExtensionContext): void {
  const began = performance.now();
  const log = createLog();
  const ctx = new AgentContext(extension, log);
  context = ctx;
  extension.subscriptions.push(
    log,
    registerTrust(() => {
      log.info("the workspace is trusted now: restarting the server with the real settings");
      void ctx.restartServer();
    }),
    ...registerCommands(ctx, () => ctx.proposals.activeProposalId()),
    registerRunProgress(ctx),
    registerStatusBar(ctx),
  );
  try {
    registerViews(ctx);
  } catch (err) {
    log.error(`the views could not be registered: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  }
  void ctx.start();
  log.info(`activated in ${(performance.now() - began).toFixed(1)} ms`);
}

export async function deactivate(): Promise<void> {
  const ctx = context;
  context = undefined;
  await ctx?.dispose();
}
