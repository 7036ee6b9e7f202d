/** Where `createSqliteRunStore` keeps its file, and how long its writes wait for a lock. */
export interface SqliteRunStoreOptions {
  /** A file path, or `:memory:`. The folder is created when missing. */
  filename: string;
  now?: () => Date;
  /**
   * Refuse to open a file another process has open as a Tether store
   * (`data_dir_in_use`). Default true; only a test that plays two processes
   * in one turns it off.
   */
  exclusive?: boolean;
  /** How long a run's start waits for a lock held by another connection before it is refused (`store_unavailable`). Default 2 s. */
  startWaitMs?: number;
  /** How long a running run's writes wait for such a lock before the run fails. Default 10 s. */
  writeWaitMs?: number;
  /** How often a worker thread moves the write-ahead log into the database file, off the event loop. Default 500 ms. */
  checkpointEveryMs?: number;
  /**
   * How large the write-ahead log may grow, in pages, before the store's own
   * connection finishes a checkpoint the worker has nearly done, so that the
   * log starts over even when writes never pause. Default 8192 (32 MB).
   */
  walLimitPages?: number;
}

/** Refuses options that would break the store later, before its file is taken. */
export function checkSqliteRunStoreOptions(options: SqliteRunStoreOptions): void {
  if (options.walLimitPages !== undefined && !(Number.isInteger(options.walLimitPages) && options.walLimitPages > 0))
    throw new TypeError(`walLimitPages must be a whole number of pages above 0, not ${options.walLimitPages}.`);
}
