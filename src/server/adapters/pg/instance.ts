import { TetherError } from "../../../protocol/index.ts";
import type { PgQueries, PgRunner, PgSession } from "./runner.ts";

/** Advisory lock class of the instances (the second key hashes schema and instance id). */
export const INSTANCE_LOCK = 0x7e7e_0002;
const REACQUIRE_MS = 1000;
/** How long a starting instance tries for its lock: another instance's sweep may hold it for a moment, a live twin for ever. */
const FIRST_TAKE_MS = 3000;

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
export async function holdInstanceLock(
  runner: PgRunner,
  key: string,
  options: { name?: string; onLost?: (error: unknown) => void } = {},
): Promise<PgInstanceLock> {
  const listeners: Array<(error: unknown) => void> = options.onLost ? [options.onLost] : [];
  let session: PgSession | undefined;
  let released = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  /** Taken again after a lost connection, the lock is free but for a sweep's moment; at start, held means a twin. */
  const acquire = async (first = false) => {
    const next = await runner.session();
    try {
      if (first) await takeFirst(next, key, options.name ?? key);
      else await next.query("SELECT pg_advisory_lock($1, hashtext($2))", [INSTANCE_LOCK, key]);
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
  await acquire(true);
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

/**
 * The lock at start, without waiting on a live process that holds it (two
 * instances given one `instanceId`): refused, naming the id, rather than a
 * start that hangs.
 */
async function takeFirst(session: PgSession, key: string, name: string): Promise<void> {
  const deadline = Date.now() + FIRST_TAKE_MS;
  for (;;) {
    const { rows } = await session.query<{ taken: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS taken", [INSTANCE_LOCK, key]);
    if (rows[0]?.taken) return;
    if (Date.now() >= deadline) {
      throw new TetherError(
        "config_invalid",
        `Another live instance on this database is named "${name}": give each instance its own instanceId, or leave it unset for a generated one.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
