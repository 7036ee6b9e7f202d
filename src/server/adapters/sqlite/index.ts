/**
 * The run store on SQLite, one process's default (`createTetherApp` loads it
 * when no `databaseUrl` is set), and the helpers an app's own SQLite tables
 * use to wait out a busy database the way the store does. Needs the optional
 * peer `better-sqlite3`.
 *
 * @module
 */
export { createSqliteRunStore } from "./run-store.ts";
export type { SqliteRunStoreOptions } from "./run-store-options.ts";
export { openSqliteDatabase } from "./database.ts";
export { sqliteAttempt, toStoreError, type SqliteAttemptOptions } from "./attempt.ts";
