/**
 * The sessions the Agent view lists (DESIGN §9): each a conversation of runs, continued by
 * `agent/run {sessionId}`. Built from the server's `agent/sessions` answer and from the runs
 * this window saw, and kept (with a short record of each run: goal, status, summary) in the
 * workspace state, so the list and the conversations survive a reload even when the server
 * has restarted. A server from before §9 gives no sessionId: each of its runs is a session of
 * its own (`run:<runId>`) that cannot be continued.
 * Must not know: VS Code (the caller loads and saves `toJSON()`).
 */

import type { RunStatus, SessionInfo } from "../protocol";
import type { RunInfo } from "./runStore";

export interface RunRecord {
  runId: string;
  goal: string;
  status: RunStatus;
  summary?: string | null;
  error?: string | null;
}

export interface Session {
  sessionId: string;
  title: string;
  /** the runs this window knows, in order */
  runs: string[];
  /** how many runs the server says it holds (it may know more than this window) */
  runCount?: number;
  /** epoch ms */
  updated: number;
  /** false: a run of a server without sessions; it cannot be continued */
  continuable: boolean;
}

export interface SavedSessions {
  sessions: Session[];
  records: RunRecord[];
}

export const LOCAL_PREFIX = "run:";
const MAX_SESSIONS = 30;
const MAX_RECORDS = 300;

function epoch(updated: string | number): number {
  if (typeof updated === "number") return updated < 1e12 ? updated * 1000 : updated;
  const t = Date.parse(updated);
  return Number.isFinite(t) ? t : 0;
}

export class SessionList {
  private readonly sessions = new Map<string, Session>();
  private readonly records = new Map<string, RunRecord>();

  constructor(saved?: Partial<SavedSessions>) {
    for (const s of saved?.sessions ?? []) {
      if (s && typeof s.sessionId === "string") this.sessions.set(s.sessionId, { ...s, runs: [...(s.runs ?? [])] });
    }
    for (const r of saved?.records ?? []) if (r && typeof r.runId === "string") this.records.set(r.runId, r);
  }

  /** Newest first. */
  list(): Session[] {
    return [...this.sessions.values()].sort((a, b) => b.updated - a.updated);
  }

  get(sessionId: string): Session | undefined {
    return this.sessions.get(sessionId);
  }

  record(runId: string): RunRecord | undefined {
    return this.records.get(runId);
  }

  /** The session a run belongs to (its own `run:<id>` when the server gave none). */
  static keyOf(run: Pick<RunInfo, "runId" | "sessionId">): string {
    return run.sessionId ?? `${LOCAL_PREFIX}${run.runId}`;
  }

  /** Merge the server's `agent/sessions` answer (its titles and run lists win). */
  fromServer(list: readonly SessionInfo[]): void {
    for (const s of list) {
      if (!s || typeof s.sessionId !== "string") continue;
      const mine = this.sessions.get(s.sessionId);
      const runs = Array.isArray(s.runs) ? s.runs.filter((r): r is string => typeof r === "string") : [];
      for (const r of mine?.runs ?? []) if (!runs.includes(r)) runs.push(r);
      this.sessions.set(s.sessionId, {
        sessionId: s.sessionId,
        title: typeof s.title === "string" && s.title ? s.title : mine?.title ?? "Session",
        runs,
        runCount: typeof s.runs === "number" ? s.runs : runs.length,
        updated: Math.max(epoch(s.updated), mine?.updated ?? 0),
        continuable: true,
      });
    }
    this.trim();
  }

  /** A run seen in this window: into its session (created with the goal as its title). */
  observe(run: RunInfo, now = Date.now()): boolean {
    const key = SessionList.keyOf(run);
    let changed = false;
    // its events came before agent/run's answer named the session: it leaves its own
    const early = run.sessionId ? this.sessions.get(`${LOCAL_PREFIX}${run.runId}`) : undefined;
    if (early) {
      this.sessions.delete(early.sessionId);
      changed = true;
    }
    let session = this.sessions.get(key);
    if (!session) {
      session = { sessionId: key, title: run.goal || run.runId, runs: [], updated: now, continuable: !!run.sessionId };
      this.sessions.set(key, session);
      changed = true;
    }
    if (!session.runs.includes(run.runId)) {
      session.runs.push(run.runId);
      session.updated = now;
      changed = true;
    }
    const before = this.records.get(run.runId);
    const record: RunRecord = { runId: run.runId, goal: run.goal, status: run.status, summary: run.summary ?? null, error: run.error ?? null };
    if (!before || before.status !== record.status || before.goal !== record.goal || before.summary !== record.summary) {
      this.records.set(run.runId, record);
      changed = true;
    }
    if (changed) this.trim();
    return changed;
  }

  toJSON(): SavedSessions {
    return { sessions: this.list(), records: [...this.records.values()] };
  }

  private trim(): void {
    const keep = this.list().slice(0, MAX_SESSIONS);
    const ids = new Set(keep.map((s) => s.sessionId));
    for (const key of [...this.sessions.keys()]) if (!ids.has(key)) this.sessions.delete(key);
    const runs = new Set(keep.flatMap((s) => s.runs));
    for (const key of [...this.records.keys()]) if (!runs.has(key)) this.records.delete(key);
    while (this.records.size > MAX_RECORDS) this.records.delete(this.records.keys().next().value as string);
  }
}
