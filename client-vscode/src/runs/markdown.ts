/**
 * A run as the Markdown of its read-only transcript document: goal, status with the verdict
 * (DESIGN §9), tasks, the transcript, the verification's checks, the usage, the summary and
 * the error.
 * Must not know: VS Code, how the run model is fed (a plain function of a RunInfo).
 */

import type { Check } from "../protocol";
import type { RunInfo } from "./runStore";
import { usageText, verdict } from "./verdict";

function checkMarkdown(check: Check): string[] {
  const [first = "", ...rest] = check.detail.trim().split("\n");
  const command = check.command ? ` — \`${check.command}\`` : "";
  const lines = [`- ${check.passed ? "✓" : "✗"} **${check.kind}** ${check.passed ? "passed" : "failed"}: ${first.trim()}${command}`];
  if (rest.length) lines.push("", "  ```", ...rest.map((l) => `  ${l}`), "  ```");
  return lines;
}

export function runMarkdown(run: RunInfo | undefined, runId: string): string {
  if (!run) return `# Run ${runId}\n\nThis run is not known to this window.\n`;
  const v = verdict(run.status, run.verification);
  const lines = [`# ${run.goal || "Run"}`, "", `Run \`${run.runId}\` — **${run.status}**${v ? ` · ${v.text}` : ""} · ${run.steps} step(s)`, ""];
  if (run.summary) lines.push("## Summary", "", run.summary, "");
  if (run.rules?.length) lines.push(`Rules read: ${run.rules.map((r) => `\`${r}\``).join(", ")}`, "");
  if (run.tasks.length) {
    lines.push("## Tasks", "");
    for (const t of run.tasks) lines.push(`${t.index + 1}. [${t.status}] ${t.title}`);
    lines.push("");
  }
  lines.push("## Transcript", "");
  for (const entry of run.transcript) {
    const time = new Date(entry.at).toISOString().slice(11, 19);
    const body =
      entry.kind === "thought"
        ? entry.text.split("\n").map((l) => `> ${l}`).join("\n")
        : entry.kind === "tool_call" || entry.kind === "tool_result"
          ? `\`${entry.text.replace(/`/g, "'")}\``
          : entry.text;
    lines.push(`- \`${time}\` ${entry.kind === "thought" ? "\n" + body : body}`);
  }
  const verification = run.verification;
  if (verification) {
    const word = verification.verified === true ? "Verified" : verification.verified === false ? "A check failed" : "Not verified";
    const why = verification.verified === null ? `: ${verification.unverified || "no check could run"}.` : ".";
    lines.push("", "## Verification", "", `**${word}**${why}`);
    if (verification.checks.length) lines.push("", ...verification.checks.flatMap(checkMarkdown));
  }
  const usage = usageText(run.usage);
  if (usage) lines.push("", "## Usage", "", usage);
  if (run.error) lines.push("", "## Error", "", run.error);
  return lines.join("\n") + "\n";
}
