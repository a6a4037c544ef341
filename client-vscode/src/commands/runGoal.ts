/**
 * Agent: Run Goal… — the goal in an input box, then mode and approval quick picks whose
 * first, active item is the configured value (Enter keeps it), then ctx.startRun.
 */

import * as vscode from "vscode";
import type { AgentCtx } from "../ctx";
import { APPROVALS, MODES, type Approval, type Mode } from "../protocol";
import { settingFirst } from "../config";
import { showUntrusted } from "../trust";

const MODE_HELP: Record<Mode, string> = {
  "read-only": "read files and the index only",
  dev: "read, propose edits, use the network",
  ci: "read and run shell commands in the sandbox",
  full: "everything: edits, shell, git commits, network",
};
const APPROVAL_HELP: Record<Approval, string> = {
  ask: "every edit opens as a diff; the run waits for Accept or Reject",
  auto: "apply every edit at once (dev and full modes only)",
  never: "propose only; nothing is applied",
  plan: "review the agent's plan first, then every edit as with ask",
};

async function pick<T extends string>(title: string, all: readonly T[], configured: T, help: Record<T, string>): Promise<T | undefined> {
  const items = settingFirst(all, configured).map((value) => ({
    label: value,
    description: value === configured ? "(setting)" : undefined,
    detail: help[value],
    value,
  }));
  const qp = vscode.window.createQuickPick<(typeof items)[number]>();
  qp.title = title;
  qp.items = items;
  qp.activeItems = [items[0]];
  qp.ignoreFocusOut = true;
  return new Promise<T | undefined>((resolve) => {
    let done = false;
    qp.onDidAccept(() => {
      done = true;
      resolve(qp.selectedItems[0]?.value ?? qp.activeItems[0]?.value);
      qp.hide();
    });
    qp.onDidHide(() => {
      if (!done) resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

export function runGoal(ctx: AgentCtx) {
  return async (): Promise<void> => {
    if (!ctx.trusted) return showUntrusted();
    const goal = await vscode.window.showInputBox({
      title: "Agent: Run Goal",
      prompt: "What should the agent do?",
      placeHolder: "e.g. Add a --verbose flag to the CLI and a test for it",
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() ? undefined : "Type a goal (Escape cancels)"),
    });
    if (!goal?.trim()) return;
    const config = ctx.config();
    const mode = await pick("Agent: Run Goal — mode (Enter keeps the setting)", MODES, config.mode, MODE_HELP);
    if (!mode) return;
    const approval = await pick("Agent: Run Goal — approval (Enter keeps the setting)", APPROVALS, config.approval, APPROVAL_HELP);
    if (!approval) return;
    await ctx.startRun(goal.trim(), { mode, approval });
  };
}
