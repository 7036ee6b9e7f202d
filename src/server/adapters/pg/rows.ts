import type { RunLink, StoredRun, StoredInterrupt, StoredThread } from "../../store/index.ts";

/** Rows as PostgreSQL returns them (json columns parsed, timestamps as dates), and how they read as the store's records. */
export interface PgRunRow {
  run_id: string;
  thread_id: string;
  agent_id: string;
  user_id: string;
  parent_run_id: string | null;
  trigger: StoredRun["trigger"] | null;
  status: StoredRun["status"];
  outcome: StoredRun["outcome"] | null;
  error: StoredRun["error"] | null;
  usage: StoredRun["usage"] | null;
  request_summary: StoredRun["requestSummary"] | null;
  log: StoredRun["log"];
  state: StoredRun["state"] | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface PgThreadRow {
  thread_id: string;
  agent_id: string;
  owner_id: string;
  created_at: Date;
  updated_at: Date;
  state: StoredThread["state"] | null;
}

export interface PgInterruptRow {
  body: Omit<StoredInterrupt, "status" | "answer" | "resolvedByRunId">;
  status: StoredInterrupt["status"];
  answer: StoredInterrupt["answer"] | null;
  resolved_by_run_id: string | null;
}

export function pgThread(row: PgThreadRow): StoredThread {
  return {
    threadId: row.thread_id,
    agentId: row.agent_id,
    ownerId: row.owner_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(row.state ? { state: row.state } : {}),
  };
}

export type PgRunLinkRow = Pick<PgRunRow, "run_id" | "parent_run_id" | "trigger" | "created_at">;

export function pgRunLink(row: PgRunLinkRow): RunLink {
  return {
    runId: row.run_id,
    ...(row.parent_run_id ? { parentRunId: row.parent_run_id } : {}),
    ...(row.trigger ? { trigger: row.trigger } : {}),
    createdAt: row.created_at.toISOString(),
  };
}

export function pgRun(row: PgRunRow): StoredRun {
  return {
    runId: row.run_id,
    threadId: row.thread_id,
    agentId: row.agent_id,
    userId: row.user_id,
    ...(row.parent_run_id ? { parentRunId: row.parent_run_id } : {}),
    ...(row.trigger ? { trigger: row.trigger } : {}),
    status: row.status,
    ...(row.outcome ? { outcome: row.outcome } : {}),
    ...(row.error ? { error: row.error } : {}),
    ...(row.usage ? { usage: row.usage } : {}),
    ...(row.request_summary ? { requestSummary: row.request_summary } : {}),
    log: row.log,
    ...(row.state ? { state: row.state } : {}),
    createdAt: row.created_at.toISOString(),
    ...(row.finished_at ? { finishedAt: row.finished_at.toISOString() } : {}),
  };
}

export function pgInterrupt(row: PgInterruptRow): StoredInterrupt {
  return {
    ...row.body,
    status: row.status,
    ...(row.answer ? { answer: row.answer } : {}),
    ...(row.resolved_by_run_id ? { resolvedByRunId: row.resolved_by_run_id } : {}),
  };
}
