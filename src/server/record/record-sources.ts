import type { RunStore } from "../store/index.ts";
import type { RecordInputCache } from "./record-input-cache.ts";

/** What assembling a record reads: the store, and what only the serving process knows. */
export interface RecordSources {
  store: RunStore;
  /** Whether a process is running the run, here or on another instance (a `running` run nobody runs is incomplete for good). */
  isLive(runId: string): boolean | Promise<boolean>;
  /** Whether the agent shows generated UI (its runs' records name the catalogs surfaces were checked against). */
  generatedUi(agentId: string): boolean;
  /** Where the request part of records already read is kept, so later pages skip it (see record-input-cache.ts). */
  recordInputs?: RecordInputCache;
}
