/** What a stop signal does, by how many came before it. */
export interface StopSteps {
  /** The first: stop serving, let the runs in progress end, store them, exit. */
  graceful(): void;
  /** The second: stop the runs in progress now, so the graceful stop can finish. */
  hurry(): void;
  /** The third: exit without waiting for anything. */
  exit(): void;
}

/**
 * A handler for SIGINT and SIGTERM that escalates: a run on a model that never answers must not keep a
 * server up, yet one Ctrl-C must not cut a run short. A signal within `sameSignalMs` of the one before is
 * that one again: under npm a Ctrl-C reaches the server twice, from the terminal and passed on by npm.
 */
export function stopOnSignals(steps: StopSteps, options: { sameSignalMs?: number; now?: () => number } = {}): () => void {
  const sameSignalMs = options.sameSignalMs ?? 1000;
  // The monotonic clock: a wall clock set back would make every later signal look like a repeat.
  const now = options.now ?? (() => performance.now());
  const order = [steps.graceful, steps.hurry, steps.exit];
  let received = 0;
  let last = -Infinity;
  return () => {
    const at = now();
    if (at - last < sameSignalMs || received >= order.length) return;
    last = at;
    order[received++]!();
  };
}
