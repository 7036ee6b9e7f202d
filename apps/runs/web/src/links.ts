/** What the page shows, as its address says: `?thread=<threadId>`, `?run=<runId>`, or both. */
export interface Selection {
  threadId?: string;
  runId?: string;
}

export function readSelection(search: string): Selection {
  const params = new URLSearchParams(search);
  const threadId = params.get("thread")?.trim();
  const runId = params.get("run")?.trim();
  return { ...(threadId ? { threadId } : {}), ...(runId ? { runId } : {}) };
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
