import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteRunStore } from "./run-store.ts";

const begin = (runId: string) => ({
  thread: { threadId: `t-${runId}`, agentId: "workdesk", ownerId: "kim" },
  run: { runId, userId: "kim", input: {}, log: [] },
  events: [],
  messages: [],
  resolvedToolCallIds: [],
});

/** The runs the database file holds by itself, without its write-ahead log: what a checkpoint has moved there. */
function runsInTheFileAlone(filename: string, dir: string): string[] {
  const copy = join(dir, "copy.db");
  copyFileSync(filename, copy);
  const db = new Database(copy, { readonly: true });
  try {
    return (db.prepare("SELECT run_id FROM runs ORDER BY run_id").all() as Array<{ run_id: string }>).map((row) => row.run_id);
  } catch {
    return []; // copied mid-checkpoint, or before the tables were moved: look again
  } finally {
    db.close();
  }
}

async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe("the SQLite store's checkpoints", () => {
  const dirs: string[] = [];
  const dirOf = () => {
    const dir = mkdtempSync(join(tmpdir(), "tether-checkpoints-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("are made by a worker thread, one for every store of the process: a run's start reaches each database file without a commit checkpointing", async () => {
    const [a, b] = [dirOf(), dirOf()];
    const stores = [
      createSqliteRunStore({ filename: join(a, "tether.db"), checkpointEveryMs: 20 }),
      createSqliteRunStore({ filename: join(b, "tether.db"), checkpointEveryMs: 20 }),
    ];
    // A few rows are far from the thousand pages after which a commit would checkpoint itself.
    await stores[0]!.beginRun(begin("r1"));
    await stores[1]!.beginRun(begin("r2"));
    await eventually(() => runsInTheFileAlone(join(a, "tether.db"), a).includes("r1") && runsInTheFileAlone(join(b, "tether.db"), b).includes("r2"));
    expect(runsInTheFileAlone(join(a, "tether.db"), a)).toEqual(["r1"]);
    expect(runsInTheFileAlone(join(b, "tether.db"), b)).toEqual(["r2"]);
    // One store closed, the other still checkpointed.
    await stores[0]!.close();
    await stores[1]!.beginRun(begin("r3"));
    await eventually(() => runsInTheFileAlone(join(b, "tether.db"), b).includes("r3"));
    expect(runsInTheFileAlone(join(b, "tether.db"), b)).toEqual(["r2", "r3"]);
    await stores[1]!.close();
    // Closed, the worker's connections are gone too: the last connection removes the log, and the file opens again.
    expect(existsSync(join(a, "tether.db-wal"))).toBe(false);
    expect(existsSync(join(b, "tether.db-wal"))).toBe(false);
    const again = createSqliteRunStore({ filename: join(a, "tether.db") });
    expect((await again.getRun("r1"))?.runId).toBe("r1");
    await again.close();
  });

  it("keep the log bounded under writes that never pause: past the limit, once the worker has copied it all, the store's connection copies what came since and its next write starts it over", async () => {
    const dir = dirOf();
    const filename = join(dir, "tether.db");
    const store = createSqliteRunStore({ filename, checkpointEveryMs: 20, walLimitPages: 64 });
    const logBytes = () => (existsSync(`${filename}-wal`) ? statSync(`${filename}-wal`).size : 0);
    // A commit every turn of the event loop for two seconds: the worker's checkpoints never find the log still.
    let runs = 0;
    let startedOver = 0;
    let last = 0;
    const until = Date.now() + 2000;
    while (Date.now() < until) {
      await store.beginRun({ ...begin(`r${runs}`), run: { runId: `r${runs}`, userId: "kim", input: { padding: "x".repeat(2000) }, log: [] } });
      runs++;
      const size = logBytes();
      // The log starts over cut back to the limit: its file shrinks. Without that it only ever grows.
      if (size < last) startedOver++;
      last = size;
    }
    expect(startedOver).toBeGreaterThanOrEqual(3);
    expect((await store.getRun(`r${runs - 1}`))?.runId).toBe(`r${runs - 1}`);
    await store.close();
  });

  it("refuse a log limit that is not a whole number of pages above 0, before taking the file", async () => {
    const dir = dirOf();
    const filename = join(dir, "tether.db");
    for (const walLimitPages of [0, -1, 1.5, Number.NaN, Infinity])
      expect(() => createSqliteRunStore({ filename, walLimitPages })).toThrow(`walLimitPages must be a whole number of pages above 0, not ${walLimitPages}.`);
    // Nothing was left holding the file.
    const store = createSqliteRunStore({ filename });
    await store.close();
  });

  it("let a process with nothing else to do finish closing its store (the worker never keeps it alive, nor lets it exit mid-close)", async () => {
    const dir = dirOf();
    const script = join(dir, "close.mts");
    const store = fileURLToPath(new URL("./run-store.ts", import.meta.url));
    writeFileSync(
      script,
      `import { createSqliteRunStore } from ${JSON.stringify(store)};
const store = createSqliteRunStore({ filename: ${JSON.stringify(join(dir, "tether.db"))} });
await store.beginRun(${JSON.stringify(begin("r1"))});
await store.close();
console.log("closed");
`,
    );
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ["--import", "tsx", script], {
      cwd: fileURLToPath(new URL("../../../..", import.meta.url)),
      timeout: 30_000,
    });
    expect(stdout.trim()).toBe("closed");
    expect(existsSync(join(dir, "tether.db-wal"))).toBe(false);
  }, 40_000);
});
