/**
 * The tabs of one browser on one thread tell each other when a run starts
 * (a BroadcastChannel per thread), so an idle tab follows it live instead of
 * showing a conversation that has moved on.
 */
export interface ThreadChannel {
  /** Tells the other tabs this one started a run. */
  announce(runId: string): void;
  /** Hears of runs another tab started; one listener, the last given. */
  onRunElsewhere(listener: (runId: string) => void): void;
}

export function openThreadChannel(threadId: string): ThreadChannel | undefined {
  if (typeof BroadcastChannel !== "function") return undefined;
  const channel = new BroadcastChannel(`tether:thread:${threadId}`);
  let listener: ((runId: string) => void) | undefined;
  channel.onmessage = (event: MessageEvent) => {
    const runId = (event.data as { runId?: unknown } | null)?.runId;
    if (typeof runId === "string") listener?.(runId);
  };
  return { announce: (runId) => channel.postMessage({ runId }), onRunElsewhere: (given) => (listener = given) };
}
