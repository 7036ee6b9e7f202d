/**
 * Milliseconds since the epoch with sub-millisecond resolution, comparable
 * across processes on one machine: each process's `performance.timeOrigin`
 * is read from the system clock when it starts, and `performance.now()` runs
 * on the monotonic clock from there. `bench/load` checks the remaining
 * offset between its processes (see `measureClockOffset`).
 */
export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}
