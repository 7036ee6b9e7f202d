import { readRunRecord, type RunRecordDocument, type ThreadRunChain } from "@tether-agent/tether/protocol";

/** What asking the API gave: the value, or why there is none in words the page shows. */
export type Answer<T> = { state: "ok"; value: T } | { state: "signed-out" } | { state: "missing" } | { state: "failed"; message: string };

/** GETs a path of the API with the demo's sign-in cookie (same origin), reading 401 and 403/404 as the page explains them. */
export async function getJson<T>(path: string): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" } });
  } catch (error) {
    return { state: "failed", message: `The server did not answer (${(error as Error).message}).` };
  }
  if (response.status === 401) return { state: "signed-out" };
  // Another user's run and a run that does not exist read the same: the page must not tell them apart.
  if (response.status === 403 || response.status === 404) return { state: "missing" };
  const body = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
  if (!response.ok || body === undefined) {
    return { state: "failed", message: body?.error ? `${body.error.code}: ${body.error.message}` : `The server answered ${response.status}.` };
  }
  return { state: "ok", value: body as T };
}

/** A page of a run's record: the first without `afterSeq`, the following ones from `output.next`; `limit` events at most when given. */
export async function getRecord(runId: string, page: { afterSeq?: number; limit?: number } = {}): Promise<Answer<RunRecordDocument>> {
  const query = new URLSearchParams();
  if (page.afterSeq !== undefined) query.set("afterSeq", String(page.afterSeq));
  if (page.limit !== undefined) query.set("limit", String(page.limit));
  const answer = await getJson<unknown>(`/api/runs/${encodeURIComponent(runId)}/record${query.size > 0 ? `?${query}` : ""}`);
  if (answer.state !== "ok") return answer;
  try {
    // Marks the cuts the record lists: anything else shaped like one is shown as the data it is.
    return { state: "ok", value: readRunRecord(answer.value) };
  } catch (error) {
    return { state: "failed", message: (error as Error).message };
  }
}

export function getChain(threadId: string): Promise<Answer<ThreadRunChain>> {
  return getJson<ThreadRunChain>(`/api/threads/${encodeURIComponent(threadId)}/runs`);
}
