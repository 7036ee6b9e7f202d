/** How often an instance looks for runs whose instance died, by default. */
export const DEFAULT_LEASE_SWEEP_MS = 3000;

export interface LeaseSweeper {
  /** Stops sweeping; resolves once a sweep under way has finished. */
  stop(): Promise<void>;
}

export interface LeaseSweeperOptions {
  /** The store's `endRunsOfLostInstances`: ends the runs of instances that are gone, once each. */
  sweep: () => Promise<number>;
  /** Pause between the end of one sweep and the start of the next. */
  intervalMs: number;
  /** Told how many runs a sweep ended, when it ended any. */
  onEnded?: (count: number) => void;
  /** Told when a sweep failed (the database was away), once per outage; the next sweep tries again. */
  onError?: (error: unknown) => void;
}

/**
 * Run leases, in each instance: every `intervalMs` it ends the runs whose
 * instance is gone (its liveness lock is free), so their clients, on any
 * instance, get RUN_ERROR `instance_lost` and their threads continue. Every
 * instance sweeps; the store makes sure each run is ended once. Sweeps never
 * overlap, and the timer keeps no process alive.
 */
export function startLeaseSweeper(options: LeaseSweeperOptions): LeaseSweeper {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let failing = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = options
        .sweep()
        .then(
          (count) => {
            failing = false;
            if (count > 0) options.onEnded?.(count);
          },
          (error: unknown) => {
            if (!failing) options.onError?.(error);
            failing = true;
          },
        )
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, options.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
