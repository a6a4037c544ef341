/**
 * A run's verification and usage (DESIGN §9): read off the wire, and worded the one way every
 * view shows them — the verdict ("verified: tests passed", "unverified: <reason>", a failed
 * check), one line per check, and the usage ("1,200 tokens in / 80 out · model 4.5 s ·
 * context 900 of 8,192 (11 %)").
 * The readers take what the server sent field by field: a server from before §9 sends no
 * verification and a usage of tokens and cost only; a malformed field is dropped, never thrown.
 * Must not know: VS Code, the run store (plain functions of the protocol's types).
 */

import type { Check, RunStatus, Usage, Verification } from "../protocol";

/** What is known of a run's usage: every field of DESIGN §9, or fewer from an older server. */
export type RunUsage = Partial<Usage>;

export type VerdictLevel = "verified" | "unverified" | "failed";

/** The verdict of a run, when the server gave one: a level and its compact text. */
export interface Verdict {
  level: VerdictLevel;
  text: string;
}

// --- reading ------------------------------------------------------------------------------------
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function readCheck(raw: unknown): Check | undefined {
  if (!isObject(raw) || typeof raw.kind !== "string" || !raw.kind || typeof raw.passed !== "boolean") return undefined;
  const check: Check = {
    // a kind a newer server adds is kept (and worded generically)
    kind: raw.kind as Check["kind"],
    passed: raw.passed,
    detail: typeof raw.detail === "string" ? raw.detail : "",
  };
  if (typeof raw.command === "string" && raw.command) check.command = raw.command;
  return check;
}

/**
 * `verification` as sent: undefined when the server said nothing (before §9, or malformed),
 * null when it said null (the run is going on, or ended before any verdict).
 */
export function readVerification(raw: unknown): Verification | null | undefined {
  if (raw === null) return null;
  if (!isObject(raw)) return undefined;
  const verified = raw.verified;
  if (verified !== true && verified !== false && verified !== null) return undefined;
  const checks = Array.isArray(raw.checks) ? raw.checks.map(readCheck).filter((c): c is Check => c !== undefined) : [];
  const out: Verification = { verified, checks };
  if (typeof raw.unverified === "string" && raw.unverified) out.unverified = raw.unverified;
  return out;
}

const USAGE_FIELDS = ["promptTokens", "completionTokens", "modelSeconds", "contextWindow", "contextUsed", "cost"] as const;

/** `usage` as sent: the fields that are finite numbers ≥ 0 (`cost: null` of an older server is none). */
export function readUsage(raw: unknown): RunUsage | undefined {
  if (!isObject(raw)) return undefined;
  const out: RunUsage = {};
  for (const key of USAGE_FIELDS) {
    const v = raw[key];
    if (typeof v === "number" && Number.isFinite(v) && v >= 0) out[key] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

// --- wording ------------------------------------------------------------------------------------
function firstLine(text: string): string {
  return (text.split("\n").find((l) => l.trim()) ?? "").trim();
}

/** One check, short: "tests passed", "tests failed: 2 failed, 3 passed", "the changed files parse". */
export function checkPhrase(check: Check): string {
  const detail = firstLine(check.detail);
  if (check.kind === "tests") {
    // the server's detail begins "tests pass: …" / "tests fail: …"
    const counts = detail.replace(/^tests? (?:pass|fail)(?:ed|es|s)?:\s*/i, "");
    return check.passed ? "tests passed" : `tests failed${counts ? `: ${counts}` : ""}`;
  }
  if (check.passed) return detail || `${check.kind} check passed`;
  return `${check.kind} check failed${detail ? `: ${detail}` : ""}`;
}

/** "✓ tests: tests pass: 3 passed (pytest -q)" — a check's kind, outcome and first line, for lists. */
export function checkLine(check: Check): string {
  const detail = firstLine(check.detail);
  return `${check.passed ? "✓" : "✗"} ${check.kind}: ${detail || (check.passed ? "passed" : "failed")}${check.command ? ` (${check.command})` : ""}`;
}

const ORDER: Record<string, number> = { tests: 0, goal: 1, answer: 2, parse: 3 };

/**
 * How the run's end is to be read (DESIGN §9), or undefined when the server gave no verdict
 * (before §9; a run cancelled or stopped without any check): a failed check, whatever the
 * status; for a `completed` run "verified: <what passed>" or "unverified: <reason>".
 */
export function verdict(status: RunStatus, verification: Verification | null | undefined): Verdict | undefined {
  if (!verification) return undefined;
  const failed = verification.checks.filter((c) => !c.passed);
  if (verification.verified === false || failed.length) {
    return { level: "failed", text: failed.length ? failed.map(checkPhrase).join("; ") : "a check failed" };
  }
  if (status !== "completed") return undefined;
  if (verification.verified === true) {
    const passed = [...verification.checks].sort((a, b) => (ORDER[a.kind] ?? 9) - (ORDER[b.kind] ?? 9));
    // "the changed files parse" says little next to a test run or the goal's own check
    const shown = passed.length > 1 ? passed.filter((c) => c.kind !== "parse") : passed;
    return { level: "verified", text: shown.length ? `verified: ${shown.map(checkPhrase).join("; ")}` : "verified" };
  }
  return { level: "unverified", text: `unverified: ${verification.unverified || "no check could run"}` };
}

/** 12345 → "12,345" (the same in every locale, so tests and screenshots agree). */
export function formatCount(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** "1,200 tokens in / 80 out · model 4.5 s · context 900 of 8,192 (11 %)"; "" when nothing is known. */
export function usageText(usage: RunUsage | undefined): string {
  if (!usage) return "";
  const parts: string[] = [];
  if (usage.promptTokens !== undefined || usage.completionTokens !== undefined) {
    parts.push(`${formatCount(usage.promptTokens ?? 0)} tokens in / ${formatCount(usage.completionTokens ?? 0)} out`);
  }
  if (usage.modelSeconds !== undefined) parts.push(`model ${usage.modelSeconds.toFixed(1)} s`);
  if (usage.contextUsed !== undefined) {
    const window = usage.contextWindow ? ` of ${formatCount(usage.contextWindow)} (${Math.round((100 * usage.contextUsed) / usage.contextWindow)} %)` : "";
    parts.push(`context ${formatCount(usage.contextUsed)}${window}`);
  }
  if (usage.cost !== undefined) parts.push(`cost ${Number(usage.cost.toFixed(4))}`);
  return parts.join(" · ");
}
