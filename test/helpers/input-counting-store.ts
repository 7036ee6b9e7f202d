import type { RunStore } from "@tether-agent/tether/store";

/** What a store handed out of run requests (their `input`), since the last `reset`. */
export interface InputReads {
  /** Characters of run requests handed out, as JSON. */
  bytes: number;
  /** How many run requests were handed out. */
  requests: number;
  /** How many thread messages `getMessages` handed out (a stateless thread's whole conversation, once). */
  messages: number;
  reset(): void;
}

const RUN_READS = new Set(["getRun", "getActiveRun", "listRuns", "listRunLinks", "readRunInput", "getMessages"]);

/**
 * A store that counts the run requests it hands out: whatever `readRunInput`
 * returns, and any `input` a run listed or looked up carries. Measures, at the
 * store, what a route loads of the runs' requests, whatever the route does with it.
 */
export function countingInputReads(store: RunStore): { store: RunStore; reads: InputReads } {
  const reads: InputReads = {
    bytes: 0,
    requests: 0,
    messages: 0,
    reset() {
      reads.bytes = 0;
      reads.requests = 0;
      reads.messages = 0;
    },
  };
  const count = (input: unknown) => {
    if (input === undefined) return;
    reads.requests++;
    reads.bytes += JSON.stringify(input).length;
  };
  const counted = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof key !== "string" || !RUN_READS.has(key) || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const result = (await (value as (...values: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
        if (key === "getMessages") reads.messages += (result as unknown[]).length;
        else if (key === "readRunInput") count(result);
        else for (const run of Array.isArray(result) ? result : [result]) count((run as { input?: unknown } | undefined)?.input);
        return result;
      };
    },
  });
  return { store: counted, reads };
}
