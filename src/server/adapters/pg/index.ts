/**
 * The run store on PostgreSQL, shared by several instances (`createTetherApp`
 * loads it when `databaseUrl` or `TETHER_DATABASE_URL` is set), and the error
 * mapping an app's own tables on the same database use. Needs the optional
 * peer `pg` (not for an embedded PGlite).
 *
 * @module
 */
export { createPgRunStore, type PgRunStoreOptions } from "./run-store.ts";
export { toPgStoreError } from "./errors.ts";
export type { PgliteLike } from "./runner.ts";
