import type { HttpAgentFetchFn } from "@ag-ui/client";
import type { Interrupt, Message } from "@ag-ui/core";
import { errorFromResponse } from "../errors.ts";

/** What the server keeps of a thread, as a reloaded page needs it. */
export interface StoredThread {
  /** The agent whose conversation it is. */
  agentId?: string;
  messages: Message[];
  /** The agent's shared state as last stored (while a run goes, as of its last committed step); absent from servers that keep none. */
  state?: unknown;
  /** The run still going, if any: a page follows it without acting. */
  activeRun: { runId: string } | null;
  pendingToolCalls: Array<{ toolCallId: string; runId: string }>;
  pendingInterrupts: Interrupt[];
  /** The thread's runs, oldest first, with how each ended (`pendingToolCallIds` when it stopped on browser calls). */
  runs?: Array<{ runId: string; status: string; outcome?: { type: string; pendingToolCallIds?: string[] } }>;
}

/** Reads the thread from Tether's thread route; undefined when there is no route or no such thread yet. */
export async function loadThread(url: string | undefined, fetch: HttpAgentFetchFn, headers: Record<string, string>): Promise<StoredThread | undefined> {
  if (!url) return undefined;
  const response = await fetch(url, { headers });
  if (response.status === 404) return undefined;
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as StoredThread;
}
