/**
 * `@tether-agent/tether/internal`: the internals that Tether's own
 * benchmarks and tests reach, so none of them imports `src/` by relative path.
 * Not a public API: no semver, any name may change or go in any release.
 *
 * @module
 */
export { createRunHub, sequenceEvents, type SequencedEvent } from "./server/hub/index.ts";
export { assembleRecord, createRecordInputCache, type RecordSources } from "./server/record/index.ts";
// The browser session's event reading, for bench:client's contenders; the resend table, for its check against the server's statuses.
export { createRunEventReader, readRunEvents } from "./client/session/index.ts";
export { isRetryable } from "./client/errors.ts";
// PostgreSQL's schema quoting and instance lock, for the services tests that drop schemas and hold the lock.
// Reached past the adapter's entry (the one import of an adapter's inside outside it): neither module loads `pg`.
export { INSTANCE_LOCK } from "./server/adapters/pg/instance.ts";
export { quoteIdentifier } from "./server/adapters/pg/schema.ts";
