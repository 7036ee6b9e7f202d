import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { parseSseFrames, type SseFrame } from "@tether-agent/tether/testing";
import { afterAll, describe, expect, it } from "vitest";
import { startServerProcess, tokenFor, type ServerProcess } from "../helpers/server-process.ts";

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));
const newDataDir = () => {
  const folder = mkdtempSync(join(tmpdir(), "tether-dir-"));
  folders.push(folder);
  return folder;
};

const headers = { "Content-Type": "application/json", Authorization: `Bearer ${tokenFor("kim")}` };
const runBody = (threadId: string, text = "find badge reader requests") => ({
  threadId,
  runId: `${threadId}-r1`,
  messages: [{ id: `${threadId}-u1`, role: "user", content: text }],
  tools: [],
  context: [],
});

/** Posts a run and collects its frames as they come, with the time each arrived. */
function streamRun(server: ServerProcess, threadId: string) {
  const frames: Array<SseFrame & { at: number }> = [];
  const done = (async () => {
    const response = await fetch(`${server.url}/api/agents/workdesk/run`, { method: "POST", headers, body: JSON.stringify(runBody(threadId)) });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return frames;
      text += decoder.decode(value, { stream: true });
      const cut = text.lastIndexOf("\n\n");
      if (cut === -1) continue;
      frames.push(...parseSseFrames(text.slice(0, cut + 2)).map((frame) => ({ ...frame, at: Date.now() })));
      text = text.slice(cut + 2);
    }
  })();
  return { frames, done };
}

const record = async (server: ServerProcess, runId: string) => (await fetch(`${server.url}/api/runs/${runId}/record`, { headers })).json();

describe("the data directory", () => {
  it("refuses a second server on it, naming the folder and the process that holds it, and the first one's runs go on untouched", async () => {
    const dataDir = newDataDir();
    const first = await startServerProcess({ dataDir, chunkDelayMs: 20 });
    try {
      const run = streamRun(first, "two-1");
      while (run.frames.length < 3) await sleep(10);

      const second = await startServerProcess({ dataDir }).then(
        (server) => server,
        (error: Error & { output(): string; code: number }) => error,
      );

      expect(second).toBeInstanceOf(Error);
      const refusal = second as Error & { output(): string; code: number };
      expect(refusal.code).toBe(1);
      expect(refusal.output()).toContain("data_dir_in_use");
      expect(refusal.output()).toContain(dataDir);
      expect(refusal.output()).toContain(`pid ${first.pid}`);

      const frames = await run.done;
      expect(frames.at(-1)!.data.type).toBe("RUN_FINISHED");
      const stored = await record(first, "two-1-r1");
      expect(stored.status).toBe("finished");
      expect(stored.output.events.map((event: { seq: number }) => event.seq)).toEqual(frames.map((frame) => Number(frame.id!.split(":")[1])));
    } finally {
      await first.stop("SIGKILL");
    }
    // A killed owner leaves no lock behind.
    const next = await startServerProcess({ dataDir });
    await next.stop();
  }, 120_000);

  it("keeps the server answering while another process holds the database's write lock, refuses new runs with store_unavailable, and finishes the run in flight once the lock is gone", async () => {
    const dataDir = newDataDir();
    const server = await startServerProcess({ dataDir, chunkDelayMs: 25 });
    const outsider = new Database(join(dataDir, "tether.db"));
    try {
      const inFlight = streamRun(server, "lock-1");
      while (inFlight.frames.length < 2) await sleep(10);

      // A backup or an admin shell takes the write lock and holds it.
      outsider.exec("BEGIN IMMEDIATE");
      const lockedAt = Date.now();
      const refused = fetch(`${server.url}/api/agents/workdesk/run`, { method: "POST", headers, body: JSON.stringify(runBody("lock-2")) });
      const health: number[] = [];
      while (Date.now() - lockedAt < 3000) {
        const started = Date.now();
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        health.push(Date.now() - started);
        await sleep(100);
      }
      const answer = await refused;
      const framesWhileLocked = inFlight.frames.filter((frame) => frame.at > lockedAt && frame.at < lockedAt + 3000).length;
      outsider.exec("COMMIT");

      // The event loop never waited for the lock (it used to block 5 s per write).
      console.log(`/healthz while locked: max ${Math.max(...health)} ms over ${health.length} calls; ${framesWhileLocked} events streamed meanwhile`);
      expect(Math.max(...health)).toBeLessThan(1000);
      expect(framesWhileLocked).toBeGreaterThan(0);
      // A run that cannot get the lock in time is refused with a code that says to retry.
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("1");
      expect(await answer.json()).toMatchObject({ error: { code: "store_unavailable", message: expect.stringContaining("locked") } });

      // The run in flight waited for its writes and ended as it would have.
      const frames = await inFlight.done;
      expect(frames.at(-1)!.data.type).toBe("RUN_FINISHED");
      const stored = await record(server, "lock-1-r1");
      expect(stored.status).toBe("finished");
      expect(stored.output.events).toHaveLength(frames.length);
    } finally {
      if (outsider.inTransaction) outsider.exec("ROLLBACK");
      outsider.close();
      await server.stop();
    }
  }, 120_000);
});
