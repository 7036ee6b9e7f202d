/** What the page shows, as its address says: `?thread=<threadId>`, `?run=<runId>`, or both. */
export interface Selection {
  threadId?: string;
  runId?: string;
  /** Events per page of the record (`?limit=`), when the reader wants smaller pages than the server's. */
  limit?: number;
}

export function readSelection(search: string): Selection {
  const params = new URLSearchParams(search);
  const threadId = params.get("thread")?.trim();
  const runId = params.get("run")?.trim();
  const limit = Number(params.get("limit"));
  return { ...(threadId ? { threadId } : {}), ...(runId ? { runId } : {}), ...(Number.isInteger(limit) && limit > 0 ? { limit } : {}) };
}

/** The address of a run, keeping the thread when it is known so the chain stays beside it. */
export function runHref(runId: string, threadId?: string): string {
  const params = new URLSearchParams();
  if (threadId) params.set("thread", threadId);
  params.set("run", runId);
  return `/runs/?${params}`;
}

export function threadHref(threadId: string): string {
  return `/runs/?${new URLSearchParams({ thread: threadId })}`;
}
