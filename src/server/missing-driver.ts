import { TetherError } from "../protocol/index.ts";

/** The adapters loaded when configured to (by `createTetherApp`, `tether serve`), each needing a driver that is an optional peer dependency. */
export type AdapterName = "sqlite" | "pg" | "redis" | "node";

/** Each adapter's driver, and the adapter in words. */
export const ADAPTER_DRIVERS: Record<AdapterName, { driver: string; adapter: string }> = {
  sqlite: { driver: "better-sqlite3", adapter: "The SQLite store (the default when no databaseUrl or TETHER_DATABASE_URL is set)" },
  pg: { driver: "pg", adapter: "The PostgreSQL store (databaseUrl or TETHER_DATABASE_URL)" },
  redis: { driver: "ioredis", adapter: "The Redis hub (redisUrl or TETHER_REDIS_URL)" },
  node: { driver: "@hono/node-server", adapter: "Serving on Node (tether serve)" },
};

/**
 * The error for an adapter whose driver is not installed: `config_invalid`,
 * saying what to install. Undefined for any other failure (a driver that is
 * there but broken keeps its own error).
 */
export function missingDriver(error: unknown, name: AdapterName): TetherError | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return undefined;
  const { driver, adapter } = ADAPTER_DRIVERS[name];
  // Node names the package it could not find: "Cannot find package 'pg' imported from …" (ESM), "Cannot find module 'pg'" (require).
  const missing = /Cannot find (?:package|module) '([^']+)'/.exec(String(message))?.[1];
  if (missing !== driver && !missing?.startsWith(`${driver}/`)) return undefined;
  return new TetherError("config_invalid", `${adapter} needs the ${driver} package, which is not installed: npm install ${driver}`, { cause: error });
}
