import type { RunStore } from "../store/index.ts";
import type { RunHub } from "./port.ts";

/** How often an instance executing runs asks the store for cancels of them that did not reach it through Redis. */
export const STORED_CANCEL_POLL_MS = 1000;

export interface StoredCancelWatcher {
  /** Stops watching; resolves once a look under way has finished. */
  stop(): Promise<void>;
}

export interface StoredCancelWatcherOptions {
  /** The store's `listCancelRequests`: this instance's running runs someone asked to cancel. */
  list: () => Promise<string[]>;
  /** Stops a run executing here (`Runner.cancel`). */
  cancel: (runId: string) => boolean;
  /** Whether this instance executes any run now: with none, the store is not asked. */
  busy: () => boolean;
  intervalMs?: number;
}

/**
 * The executing side of a cancel recorded in the store (`RunStore.recordCancelRequest`):
 * an instance whose Redis is down or stalled, or cut off from the instance
 * that was asked, still stops its runs when asked. While it executes runs it
 * looks every STORED_CANCEL_POLL_MS (one indexed query for all of them) and
 * stops each requested run once. Looks never overlap; the timer keeps no
 * process alive; a failed look (the store away) is tried again at the next.
 */
export function watchStoredCancels(options: StoredCancelWatcherOptions): StoredCancelWatcher {
  const intervalMs = options.intervalMs ?? STORED_CANCEL_POLL_MS;
  /** Requests acted on (the run was stopped), until their runs stop being listed (they ended). */
  let handled = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let looking: Promise<void> | undefined;
  let stopped = false;

  const look = async () => {
    if (!options.busy()) return;
    const requested = await options.list();
    // A run not stopped (its loop not there yet, or already ending) is asked again at the next look, until it ends.
    handled = new Set(requested.filter((runId) => handled.has(runId) || options.cancel(runId)));
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      looking = look()
        .catch(() => undefined)
        .finally(() => {
          looking = undefined;
          schedule();
        });
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await looking;
    },
  };
}

/**
 * The in-process hub on a store that several instances share, with no bus
 * between them (PostgreSQL without Redis): a cancel that lands on another
 * instance than the run's is recorded in the store, and this instance looks
 * there for cancels of the runs it executes. A hub that has its own way to
 * ask (Redis), or a store only one process uses, is returned as it is.
 */
export function withStoredCancels(hub: RunHub, store: Pick<RunStore, "recordCancelRequest" | "listCancelRequests">): RunHub {
  const { recordCancelRequest, listCancelRequests } = store;
  if (hub.requestCancel || !recordCancelRequest || !listCancelRequests) return hub;
  /** Runs opened here, until their streams close. */
  const opened = new Set<string>();
  let watcher: StoredCancelWatcher | undefined;
  return {
    ...hub,
    open(run) {
      opened.add(run.runId);
      return hub.open(run);
    },
    requestCancel: (runId) => recordCancelRequest.call(store, runId),
    serveCancels(cancel) {
      watcher ??= watchStoredCancels({
        list: () => listCancelRequests.call(store),
        cancel: (runId) => cancel(runId),
        busy: () => {
          for (const runId of opened) if (!hub.isLive(runId)) opened.delete(runId);
          return opened.size > 0;
        },
      });
    },
    async close() {
      await watcher?.stop();
      await hub.close();
    },
  };
}
