/**
 * Every command of the core, registered once: each is built from the context by its own
 * module and wrapped so that a failure becomes a message and a log line, never an
 * unhandled rejection in VS Code. (Show Dependency Graph and Open Run Transcript are the
 * views' commands: src/views.)
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { errorMessage } from "../log";
import { Commands } from "../protocol";
import { setApiKey } from "./apiKey";
import { acceptProposal, openProposal, rejectProposal } from "./proposals";
import { runGoal } from "./runGoal";
import { cancelRun, showTasks } from "./runs";
import { showTools } from "./tools";
import { undoRun } from "./undo";

type Handler = (...args: unknown[]) => unknown;

export function registerCommands(ctx: AgentCtx, activeProposal: () => string | undefined): vscode.Disposable[] {
  const table: [string, Handler][] = [
    [Commands.runGoal, runGoal(ctx)],
    [Commands.cancelRun, cancelRun(ctx)],
    [Commands.showTasks, showTasks(ctx)],
    [Commands.showTools, showTools(ctx)],
    [Commands.setApiKey, setApiKey(ctx)],
    [Commands.undoRun, undoRun(ctx)],
    [Commands.restartServer, () => ctx.restartServer()],
    [Commands.showOutput, () => ctx.log.show()],
    [Commands.acceptProposal, acceptProposal(ctx, activeProposal)],
    [Commands.rejectProposal, rejectProposal(ctx, activeProposal)],
    [Commands.keepHunk, (uri, index) => ctx.proposals.keepHunk(String(uri), Number(index))],
    [Commands.dropHunk, (uri, index) => ctx.proposals.dropHunk(String(uri), Number(index))],
    [Commands.openProposal, openProposal(ctx, activeProposal)],
  ];
  return table.map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (err) {
        ctx.log.error(`${id}: ${errorMessage(err)}`);
        void vscode.window.showErrorMessage(`agentls: ${errorMessage(err)}`);
        return undefined;
      }
    }),
  );
}
