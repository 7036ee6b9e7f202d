import type { IdSource } from "../server/run/index.ts";

/** Counting ids for `createTetherApp({ ids })`, so snapshots read the same every run: msg_1, call_1, int_1, ... */
export function createCountingIds(prefix = ""): IdSource {
  let messages = 0;
  let calls = 0;
  let interrupts = 0;
  return {
    message: () => `${prefix}msg_${++messages}`,
    toolCall: () => `${prefix}call_${++calls}`,
    interrupt: () => `${prefix}int_${++interrupts}`,
  };
}
