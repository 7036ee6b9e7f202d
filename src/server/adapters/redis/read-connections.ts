import type { Redis } from "ioredis";

/**
 * Connections for blocking reads (XREAD BLOCK holds its connection while it
 * waits), at most `max` open at once: one per run followed here from another
 * instance, shared by all of that run's followers (redis-run-reader.ts).
 * Past the cap a reader gets none and follows the store instead, so an
 * instance never takes more than `max` + 2 of Redis's `maxclients`.
 */
export interface ReadConnections {
  /** A connection, or undefined while `max` are in use. */
  borrow(): Redis | undefined;
  /** Gives a connection back for the next reader; a broken one (a read failed or timed out on it) is closed. */
  release(connection: Redis, broken?: boolean): void;
  /** Closes every connection, those in use too: their reads end with an error. */
  close(): void;
}

export interface ReadConnectionOptions {
  /** The most connections open at once. */
  max: number;
  /** The most kept open while no reader needs them. */
  idle: number;
  /** Each connection's command timeout: longer than the longest BLOCK sent on it, so only a stalled Redis trips it. */
  commandTimeoutMs: number;
}

export function createReadConnections(redis: Redis, options: ReadConnectionOptions): ReadConnections {
  const idle: Redis[] = [];
  const busy = new Set<Redis>();
  let closed = false;
  return {
    borrow() {
      if (closed || busy.size >= options.max) return undefined;
      let connection = idle.pop();
      if (!connection) {
        connection = redis.duplicate({ commandTimeout: options.commandTimeoutMs, connectionName: "tether-reader" });
        // Without a listener an error event would crash the process; the read that fails says what happened.
        connection.on("error", () => undefined);
      }
      busy.add(connection);
      return connection;
    },
    release(connection, broken = false) {
      busy.delete(connection);
      if (!broken && !closed && connection.status === "ready" && idle.length < options.idle) idle.push(connection);
      else connection.disconnect();
    },
    close() {
      closed = true;
      for (const connection of [...idle.splice(0), ...busy]) connection.disconnect();
      busy.clear();
    },
  };
}
