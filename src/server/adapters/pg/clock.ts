import type { PgQueries } from "./runner.ts";

/**
 * The store's shared clock on PostgreSQL: the database's, read alike by
 * every instance on it, whatever their own clocks say; a clock injected
 * into the store (tests) stands in for it.
 */
export function pgClock(runner: PgQueries, injected?: () => Date): () => Promise<Date> {
  if (injected) return async () => injected();
  return async () => (await runner.query<{ now: Date }>("SELECT clock_timestamp() AS now")).rows[0]!.now;
}
