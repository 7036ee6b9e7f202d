import type { RunLink, StoredRun, StoredInterrupt, StoredThread } from "../../store/index.ts";

/** Rows as SQLite returns them, and how they read as the store's records. */
export interface RunRow {
  run_id: string;
  thread_id: string;
  agent_id: string;
  user_id: string;
  parent_run_id: string | null;
  trigger: string | null;
  status: StoredRun["status"];
  outcome: string | null;
  error: string | null;
  usage: string | null;
  request_summary: string | null;
  log: string;
  state: string | null;
  created_at: string;
  finished_at: string | null;
}

export type RunLinkRow = Pick<RunRow, "run_id" | "parent_run_id" | "trigger" | "created_at">;

export interface InterruptRow {
  interrupt_id: string;
  body: string;
  status: StoredInterrupt["status"];
  answer: string | null;
  resolved_by_run_id: string | null;
}

export function toInterrupt(row: InterruptRow): StoredInterrupt {
  return {
    ...(JSON.parse(row.body) as Omit<StoredInterrupt, "status">),
    status: row.status,
    ...(row.answer ? { answer: JSON.parse(row.answer) } : {}),
    ...(row.resolved_by_run_id ? { resolvedByRunId: row.resolved_by_run_id } : {}),
  };
}

export interface ThreadRow {
  thread_id: string;
  agent_id: string;
  owner_id: string;
  created_at: string;
  updated_at: string;
  state: string | null;
}

export function toThread(row: ThreadRow): StoredThread {
  return {
    threadId: row.thread_id,
    agentId: row.agent_id,
    ownerId: row.owner_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(row.state !== null ? { state: JSON.parse(row.state) } : {}),
  };
}

export function toRun(row: RunRow): StoredRun {
  return {
    runId: row.run_id,
    threadId: row.thread_id,
    agentId: row.agent_id,
    userId: row.user_id,
    ...(row.parent_run_id ? { parentRunId: row.parent_run_id } : {}),
    ...(row.trigger ? { trigger: JSON.parse(row.trigger) } : {}),
    status: row.status,
    ...(row.outcome ? { outcome: JSON.parse(row.outcome) } : {}),
    ...(row.error ? { error: JSON.parse(row.error) } : {}),
    ...(row.usage ? { usage: JSON.parse(row.usage) } : {}),
    ...(row.request_summary ? { requestSummary: JSON.parse(row.request_summary) } : {}),
    log: JSON.parse(row.log),
    ...(row.state !== null ? { state: JSON.parse(row.state) } : {}),
    createdAt: row.created_at,
    ...(row.finished_at ? { finishedAt: row.finished_at } : {}),
  };
}

export function toRunLink(row: RunLinkRow): RunLink {
  return {
    runId: row.run_id,
    ...(row.parent_run_id ? { parentRunId: row.parent_run_id } : {}),
    ...(row.trigger ? { trigger: JSON.parse(row.trigger) } : {}),
    createdAt: row.created_at,
  };
}
