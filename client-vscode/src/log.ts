/**
 * The "agentls" output channel (a LogOutputChannel): the server's stderr and the client's
 * trace go there through vscode-languageclient, and so does the extension's own log.
 * Must not know: anything else.
 */

import * as vscode from "vscode";

export const OUTPUT_CHANNEL = "agentls";

export function createLog(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel(OUTPUT_CHANNEL, { log: true });
}

/** An error's message for a person (ResponseError, Error, anything). */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "object" && err !== null && "message" in err) return String(err.message);
  return String(err);
}
