import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentSession } from "@tether-agent/tether/client";
import { TetherError } from "@tether-agent/tether/protocol";
import { defineTool } from "@tether-agent/tether/server";
import type { RunStore } from "@tether-agent/tether/store";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { createMemoryStorage } from "@tether-agent/tether/testing";
import { z } from "zod";
import { listen } from "@tether-agent/tether/node";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createScriptedApp, types } from "./helpers/scripted-app.ts";

const folder = mkdtempSync(join(tmpdir(), "tether-outage-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const WRITES = new Set(["beginRun", "appendEvents", "commitStep", "finishRun", "endLostRun", "appendLog", "addReport"]);

/**
 * A real SQLite store whose writes fail while storage is "down", the way a
 * full disk fails them: `store_unavailable` from every write, reads still
 * working. `downAfterNextBegin` lets a run start, then takes storage away.
 */
function withOutage(store: RunStore) {
  let down = false;
  let downAfterBegin = false;
  let endsRefused = false;
  const wrapped = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as (...args: unknown[]) => Promise<unknown>;
      if (typeof key !== "string" || !WRITES.has(key)) return value;
      return async (...args: unknown[]) => {
        if (down || (endsRefused && key === "finishRun"))
          throw new TetherError("store_unavailable", "Could not store: the disk is full. Try again once storage is back.");
        const result = await value.apply(target, args);
        if (key === "beginRun" && downAfterBegin) [down, downAfterBegin] = [true, false];
        return result;
      };
    },
  });
  return {
    store: wrapped,
    downAfterNextBegin: () => (downAfterBegin = true),
    /** Every write but a run's end goes through: the step is stored, its end is not. */
    refuseEnds: () => (endsRefused = true),
    up: () => (down = endsRefused = false),
  };
}

describe("storage that fails as a run ends, and comes back", () => {
  it("tells the client, keeps the thread free, and stores the run's end and events once storage is back, without a restart", async () => {
    const disk = createSqliteRunStore({ filename: join(folder, "a", "tether.db") });
    const outage = withOutage(disk);
    const app = await createScriptedApp([{ text: "Hello there." }, { text: "Back again." }], { store: outage.store });
    try {
      outage.downAfterNextBegin();
      const response = await app.post({ threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: "hi" }] });
      const frames = parseSseFrames(await response.text());

      // The client hears the truth: the run's end could not be saved.
      expect(frames.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "store_unavailable" });
      expect((await disk.getRun("r1"))?.status).toBe("running");

      // While storage is down the thread is not held by a run that ended: a new run gets the retryable storage error, not run_in_progress.
      const refused = await app.post({ threadId: "t1", runId: "r2", messages: [{ id: "u2", role: "user", content: "again" }] });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toMatchObject({ error: { code: "store_unavailable" } });
      const cancel = await app.tether.app.request("/api/runs/r1/cancel", {
        method: "POST",
        headers: { "x-user": "kim", "Content-Type": "application/json" },
        body: "{}",
      });
      expect(cancel.status).toBe(503);

      // Storage comes back: the hub stores the run's end and every event the client got, by itself.
      outage.up();
      await vi.waitFor(async () => expect((await disk.getRun("r1"))?.status).toBe("error"), { timeout: 15_000, interval: 50 });
      expect(await disk.getRun("r1")).toMatchObject({ error: { code: "store_unavailable" } });
      expect((await disk.readEvents("r1")).map((stored) => `${stored.seq}:${stored.event.type}`)).toEqual(
        frames.map((frame) => `${frame.id!.split(":")[1]}:${frame.data.type}`),
      );
      expect(app.tether.hub.isEnding("r1")).toBe(false);

      // And the thread goes on.
      const next = await app.run({ threadId: "t1", runId: "r3", messages: [{ id: "u3", role: "user", content: "again" }] });
      expect(types(next).at(-1)).toBe("RUN_FINISHED");
    } finally {
      await app.tether.close();
    }
  });

  it("stores a waiting end at once when the next run comes, instead of refusing it with run_in_progress", async () => {
    const disk = createSqliteRunStore({ filename: join(folder, "b", "tether.db") });
    const outage = withOutage(disk);
    const app = await createScriptedApp([{ text: "Hello there." }, { text: "Back again." }], { store: outage.store });
    try {
      outage.downAfterNextBegin();
      await (await app.post({ threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: "hi" }] })).text();
      outage.up();

      const next = await app.run({ threadId: "t1", runId: "r2", messages: [{ id: "u2", role: "user", content: "again" }] });

      expect(types(next).at(-1)).toBe("RUN_FINISHED");
      expect((await disk.listRuns("t1")).map((run) => [run.runId, run.status])).toEqual([
        ["r1", "error"],
        ["r2", "finished"],
      ]);
    } finally {
      await app.tether.close();
    }
  });

  it("answers store_unavailable (503, Retry-After) when a run cannot start, and RUN_ERROR store_unavailable when a step cannot be stored", async () => {
    const disk = createSqliteRunStore({ filename: join(folder, "c", "tether.db") });
    const outage = withOutage(disk);
    const app = await createScriptedApp([{ text: "Hello there." }], { store: outage.store });
    try {
      outage.downAfterNextBegin();
      const frames = await app.run({ threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: "hi" }] });
      expect(frames.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "store_unavailable" });

      const refused = await app.post({ threadId: "t2", runId: "r2", messages: [{ id: "u2", role: "user", content: "hi" }] });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toMatchObject({ error: { code: "store_unavailable", message: expect.stringContaining("disk is full") } });
      expect(await disk.getThread("t2")).toBeUndefined();
    } finally {
      outage.up();
      await app.tether.close();
    }
  });

  it("lets a reloaded page show the run's error once, not follow the run again and again while its end waits for storage", async () => {
    const disk = createSqliteRunStore({ filename: join(folder, "d", "tether.db") });
    const outage = withOutage(disk);
    const app = await createScriptedApp([{ text: "Hello there." }], { store: outage.store });
    const server = await listen(app.tether.app, { port: 0, host: "127.0.0.1" });
    try {
      outage.refuseEnds();
      await (await app.post({ threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: "hi" }] })).text();
      let requests = 0;
      const session = createAgentSession({
        api: `${server.url}/api`,
        agentId: "test",
        threadId: "t1",
        headers: { "x-user": "kim" },
        storage: createMemoryStorage(),
        drift: "ignore",
        fetch: (url, init) => (requests++, fetch(url, init)),
      });

      await session.restore();

      expect(requests).toBeLessThan(10);
      expect(session.getState().running).toBe(false);
      const thread = await (await app.tether.app.request("/api/threads/t1", { headers: { "x-user": "kim" } })).json();
      expect(thread.activeRun).toBeNull();
    } finally {
      outage.up();
      await server.close();
      await app.tether.close();
    }
  });

  it("closes an approval the run asked for when its end could not be saved, so the thread does not wait on a question nobody saw", async () => {
    const executed: number[] = [];
    const transfer = defineTool({
      name: "transfer",
      description: "Moves money.",
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: ({ amount }) => (executed.push(amount), { transferred: amount }),
    });
    const disk = createSqliteRunStore({ filename: join(folder, "e", "tether.db") });
    const outage = withOutage(disk);
    const app = await createScriptedApp([{ toolCalls: [{ toolName: "transfer", input: { amount: 10 } }] }, { text: "What next?" }], {
      store: outage.store,
      tools: [transfer],
    });
    try {
      outage.refuseEnds();
      const frames = await app.run({ threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user", content: "pay 10" }] });
      expect(frames.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "store_unavailable" });
      outage.up();
      await vi.waitFor(async () => expect((await disk.getRun("r1"))?.status).toBe("error"), { timeout: 15_000, interval: 50 });

      expect(await disk.getPendingInterrupts("t1")).toEqual([]);
      const next = await app.run({ threadId: "t1", runId: "r2", messages: [{ id: "u2", role: "user", content: "never mind" }] });
      expect(types(next).at(-1)).toBe("RUN_FINISHED");
      expect(executed).toEqual([]);
    } finally {
      outage.up();
      await app.tether.close();
    }
  });
});
