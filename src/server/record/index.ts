/**
 * The run record: the document a run leaves behind (assembled, redacted, capped) and the facts a run
 * writes down for it. This folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export { assembleRecord } from "./assemble-record.ts";
export { offeredTools } from "./offered-tools.ts";
export { createRecordInputCache } from "./record-input-cache.ts";
export type { EventPageRequest } from "./record-output.ts";
export type { RecordSources } from "./record-sources.ts";
export { redactString } from "./redact/index.ts";
export type { ModelCallFact, ProviderErrorFact, RunFact, StateEditFact, ToolCallFact, UpstreamEventsFact } from "./run-facts.ts";
export { createUpstreamEventLog, type UpstreamEventLog } from "./upstream-event-log.ts";
export { threadRunChain } from "./thread-run-chain.ts";
