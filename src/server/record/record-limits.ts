/**
 * How much of each value a run record keeps. A value over its limit is kept
 * as a `Cut`: its first `HEAD` characters, its length and its SHA-256, so a
 * record stays readable (and a page stays small) whatever a run carried.
 * Lengths are in characters of the value (of its JSON when it is not a string).
 */
export const RECORD_LIMITS = {
  /** Any one string anywhere in a record: a message's content, a tool's arguments, an event's delta. */
  string: 16 * 1024,
  /** The history the model was given, as a whole. */
  messages: 256 * 1024,
  /** State, context, forwarded props, a tool's result, a report's body, a surface's content. */
  value: 64 * 1024,
  /** A model call's text. */
  text: 64 * 1024,
  /** One event as it was sent. */
  event: 16 * 1024,
  /** What a `Cut` keeps of the beginning. */
  head: 1024,
} as const;

/**
 * The version of the rules a record's parts are redacted and capped by
 * (redact/, keep.ts, the limits above). Parts computed once and kept as the
 * run's facts (`record-request`, `record-calls`) under another version are
 * computed again: raise it whenever those rules change.
 */
export const RECORD_RULES_VERSION = 1;
