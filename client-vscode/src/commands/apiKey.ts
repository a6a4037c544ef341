/**
 * Agent: Set API Key — stored in VS Code's SecretStorage (never in settings) and handed to
 * the server process in its environment under `agentls.apiKeyEnv`; the server restarts so
 * it takes effect. An empty entry removes the stored key.
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { SECRET_API_KEY } from "../protocol";

export function setApiKey(ctx: AgentCtx) {
  return async (): Promise<void> => {
    const name = ctx.config().apiKeyEnv;
    const key = await vscode.window.showInputBox({
      title: "Agent: Set API Key",
      prompt: `The key for the model endpoint. It is kept in VS Code's secret storage and given to the server as $${name}. Leave empty to remove the stored key.`,
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return;
    if (key.trim()) {
      await ctx.extension.secrets.store(SECRET_API_KEY, key.trim());
      ctx.log.info(`API key stored in the secret storage; the server gets it as $${name}`);
    } else {
      await ctx.extension.secrets.delete(SECRET_API_KEY);
      ctx.log.info("API key removed from the secret storage");
    }
    await ctx.restartServer();
    void vscode.window.showInformationMessage(
      key.trim() ? `agentls: API key saved; the server was restarted with it in $${name}.` : "agentls: the stored API key was removed; the server was restarted.",
    );
  };
}
