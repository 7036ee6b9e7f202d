/**
 * `@tether-agent/tether/store`: the `RunStore` port, what it keeps, and the
 * memory store. A store of your own implements `RunStore`; the SQLite and
 * PostgreSQL stores are the adapters `/sqlite` and `/pg`.
 *
 * @module
 */
export { createMemoryRunStore } from "./memory.ts";
export { UNSTORED_EVENT_LIMIT } from "./port.ts";
export type {
  AgentState,
  BeginRun,
  CommitStep,
  FinishRun,
  LostRunEnding,
  PendingToolCall,
  RunLink,
  RunLogEntry,
  RunReport,
  RunRequestSummary,
  RunStatus,
  RunStore,
  StoredEvent,
  StoredFact,
  StoredInterrupt,
  StoredRun,
  StoredThread,
} from "./port.ts";
export type { ReportCaps } from "./shared/report-room.ts";
