import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteDatabase } from "./database.ts";
import { createGroupCommit } from "./group-commit.ts";

/** What this process has open, by path: a temporary file SQLite made (named etilqs_…) shows up here, unlinked or not. */
const openFiles = () =>
  readdirSync("/proc/self/fd").flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return [];
    }
  });

describe("the SQLite store's database", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** Rewrites 300 rows of 2 KB (about 150 pages, past SQLite's 64 KiB spill) as a store's write is run: a savepoint in a group; the temporary files opened meanwhile. */
  async function filesOpenedByABigWrite(temporaryStorage?: "FILE"): Promise<string[]> {
    const dir = mkdtempSync(join(tmpdir(), "tether-db-"));
    dirs.push(dir);
    const db = openSqliteDatabase(join(dir, "tether.db"));
    if (temporaryStorage) db.pragma(`temp_store = ${temporaryStorage}`);
    db.exec("CREATE TABLE t (n INTEGER PRIMARY KEY, body BLOB NOT NULL)");
    const insert = db.prepare("INSERT INTO t (n, body) VALUES (?, ?)");
    db.transaction(() => {
      for (let n = 0; n < 300; n++) insert.run(n, Buffer.alloc(2000, n));
    })();
    const group = createGroupCommit(db);
    let opened: string[] = [];
    const rewrite = db.transaction(() => {
      db.prepare("UPDATE t SET body = zeroblob(2000)").run();
      opened = openFiles().filter((file) => file.includes("etilqs_"));
    });
    await group.run(rewrite, { waitMs: 1000, what: "rewrite every row" });
    expect(db.prepare("SELECT count(*) AS n FROM t WHERE body = zeroblob(2000)").get()).toEqual({ n: 300 });
    db.close();
    return opened;
  }

  it.skipIf(!existsSync("/proc/self/fd"))(
    "keeps a group's savepoint journal in memory: a write that changes hundreds of pages opens no temporary file",
    async () => {
      expect(await filesOpenedByABigWrite()).toEqual([]);
      // The same write with temporary storage on disk (SQLite's default) spills its journal to a file: the check above can see one.
      expect(await filesOpenedByABigWrite("FILE")).toEqual([expect.stringContaining("etilqs_")]);
    },
  );
});
