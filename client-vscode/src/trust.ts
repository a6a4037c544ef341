/**
 * Workspace trust (package.json declares limited support): in an untrusted workspace the
 * extension starts no agent runs and no shell tools — the server runs with `mode:
 * "read-only"` (config.ts) and serves navigation; the workspace's own `.venv` is not run
 * (server/resolve.ts). Granting trust restarts the server with the real settings.
 * Must not know: the client, the views.
 */

import * as vscode from "vscode";
import { ContextKeys } from "./protocol";

const MANAGE = "Manage Workspace Trust";

export const UNTRUSTED_MESSAGE =
  "agentls: this workspace is not trusted, so the agent starts no runs and no shell tools here (it only serves navigation). " +
  "Trust the workspace (Manage Workspace Trust) to run goals.";

/** Say why nothing runs, with a button to the trust editor. */
export function showUntrusted(): void {
  void vscode.window.showWarningMessage(UNTRUSTED_MESSAGE, MANAGE).then((choice) => {
    if (choice === MANAGE) void vscode.commands.executeCommand("workbench.trust.manage");
  });
}

export function registerTrust(onGranted: () => void): vscode.Disposable {
  void vscode.commands.executeCommand("setContext", ContextKeys.trusted, vscode.workspace.isTrusted);
  return vscode.workspace.onDidGrantWorkspaceTrust(() => {
    void vscode.commands.executeCommand("setContext", ContextKeys.trusted, true);
    onGranted();
  });
}
