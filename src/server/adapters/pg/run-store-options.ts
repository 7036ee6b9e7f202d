import type { Pool } from "pg";
import type { PgliteLike } from "./runner.ts";

/** How `createPgRunStore` reaches its database, and what it calls itself there. */
export interface PgRunStoreOptions {
  /** A PostgreSQL URL (`TETHER_DATABASE_URL`): the store opens a pool of its own and closes it with the store. */
  connectionString?: string;
  /** A pool of your own instead; left open when the store closes. */
  pool?: Pool;
  /** An embedded PGlite instead (tests, trying the store without a server); left open when the store closes. */
  pglite?: PgliteLike;
  /** The schema holding Tether's tables, created by the migrations when missing. Default `tether`. */
  schema?: string;
  /** Names this process in the runs it executes, so other instances can tell its runs from a stopped one's. Default: host, pid and a random suffix. */
  instanceId?: string;
  now?: () => Date;
  /** Told when the connection holding this instance's liveness lock broke (it is taken again as soon as the database answers). */
  onInstanceLockLost?: (error: unknown) => void;
}
