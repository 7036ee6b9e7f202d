import type { RunStore } from "../store/index.ts";
import type { SequencedEvent } from "./sequence-events.ts";

/** Whether the store says the run is still going. */
export async function isRunning(store: RunStore, runId: string): Promise<boolean> {
  return (await store.getRun(runId))?.status === "running";
}

/** The run's stored events after `afterSeq`, up to `until`, as followers get them. */
export async function storedAfter(store: RunStore, runId: string, afterSeq: number, until = Infinity): Promise<SequencedEvent[]> {
  return (await store.readEvents(runId, afterSeq)).filter((event) => event.seq <= until);
}
