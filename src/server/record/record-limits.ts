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
  /** One event as it was sent (or as an upstream agent sent it). */
  event: 16 * 1024,
  /**
   * An upstream agent's events of one step, kept as received (each capped as
   * an event): at most this many, and this many characters of them as JSON.
   * Applied as the run writes them, so a huge upstream cannot bloat the store.
   */
  upstreamEvents: 500,
  upstreamEventChars: 128 * 1024,
  /** What a `Cut` keeps of the beginning. */
  head: 1024,
} as const;

/**
 * The version of the rules a record's parts are redacted and capped by
 * (redact/, keep.ts, the limits above). Parts computed once and kept as the
 * run's facts (`record-request`, `record-calls`) under another version are
 * computed again: raise it whenever those rules change.
 */
// 2: model calls hold their upstream agent's events (a run's calls kept under 1 lack them).
export const RECORD_RULES_VERSION = 2;
