import type { PgQueries, PgRunner, PgSession } from "./pg-runner.ts";

/** Advisory lock class of the instances (the second key hashes schema and instance id). */
export const INSTANCE_LOCK = 0x7e7e_0002;
const REACQUIRE_MS = 1000;

export interface PgInstanceLock {
  /** Whether the lock is held now: false from the moment its connection broke until it is taken again. */
  held(): boolean;
  /** Tells `listener` each time the lock's connection breaks. */
  onLost(listener: (error: unknown) => void): void;
  release(): Promise<void>;
}

/**
 * Says "this instance is alive" to every other instance on the database,
 * with no heartbeat: a session-level advisory lock on the instance's id, held
 * on a connection of its own for as long as the store is open. PostgreSQL
 * drops it when that connection ends, however the process ended (`kill -9`
 * included), as the operating system drops the SQLite store's file lock.
 *
 * Another instance that finds runs owned by an id whose lock it can take
 * knows their process is gone (see `claimOwnerIfGone`). If the connection
 * breaks while the process lives (a database restart, a network cut), the
 * lock is lost until it is taken again, and another instance's sweep (run
 * leases, run/lease-sweeper.ts) may meanwhile end this one's runs: the
 * listeners are told, so the instance stops them itself.
 */
export async function holdInstanceLock(runner: PgRunner, key: string, onLost?: (error: unknown) => void): Promise<PgInstanceLock> {
  const listeners: Array<(error: unknown) => void> = onLost ? [onLost] : [];
  let session: PgSession | undefined;
  let released = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const acquire = async () => {
    const next = await runner.session();
    try {
      await next.query("SELECT pg_advisory_lock($1, hashtext($2))", [INSTANCE_LOCK, key]);
    } catch (error) {
      await next.release();
      throw error;
    }
    // Taken again while the store was closing: given back at once.
    if (released) {
      await next.release();
      return;
    }
    next.onLost((error) => {
      session = undefined;
      // The broken connection goes back to the pool to be discarded; kept, it would hold a pool slot for ever.
      void next.release();
      reacquireLater();
      for (const listener of listeners) listener(error);
    });
    session = next;
  };
  const reacquireLater = () => {
    if (released) return;
    retry = setTimeout(() => {
      acquire().catch(reacquireLater);
    }, REACQUIRE_MS);
    retry.unref();
  };
  await acquire();
  return {
    held: () => session !== undefined,
    onLost: (listener) => void listeners.push(listener),
    async release() {
      released = true;
      clearTimeout(retry);
      const held = session;
      session = undefined;
      if (!held) return;
      // On a shared session (PGlite) the lock must be given back; a dedicated connection drops it as it closes.
      await held.query("SELECT pg_advisory_unlock($1, hashtext($2))", [INSTANCE_LOCK, key]).catch(() => undefined);
      await held.release();
    },
  };
}

/**
 * Whether the instance that owns some running runs is gone, claimed for the
 * rest of the transaction: true when its lock could be taken (no live
 * process holds it, and no other instance is recovering its runs now).
 */
export async function claimOwnerIfGone(tx: PgQueries, key: string): Promise<boolean> {
  const { rows } = await tx.query<{ claimed: boolean }>("SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS claimed", [INSTANCE_LOCK, key]);
  return rows[0]?.claimed === true;
}
