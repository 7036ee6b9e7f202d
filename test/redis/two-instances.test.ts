import { EventType, type BaseEvent } from "@ag-ui/core";
import { sequenceEvents } from "@tether-agent/tether/internal";
import { createScriptedModel, readSseFrames, type SseFrame } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachTo, postRun, sharedServices, startInstance, type Instance } from "../helpers/instances.ts";
import { HOLD_REPLY as REPLY } from "../helpers/held-model.ts";

/**
 * Two real Tether apps on one PostgreSQL and one Redis, as two instances
 * behind a load balancer: a run executes on A, and a client follows it, or
 * reconnects to it with `Last-Event-ID`, through B.
 */

const { skipped, schemas, databaseUrl, redisUrl } = await sharedServices("Two instances on PostgreSQL and Redis");

const seqOf = (frame: SseFrame) => Number(frame.id!.split(":").at(-1));

describe.skipIf(skipped)("two instances on PostgreSQL and Redis", () => {
  const schema = schemas?.make("redis_apps") ?? "";
  let a: Instance;
  let b: Instance;

  const start = (name: string) =>
    startInstance({ databaseUrl, redisUrl, schema, name, model: createScriptedModel([{ text: REPLY }, { text: REPLY }, { text: REPLY }]) });

  beforeAll(async () => {
    a = await start("a");
    b = await start("b");
  });
  afterAll(async () => {
    await a?.tether.close();
    await b?.tether.close();
    await schemas?.dropAll();
  });

  it("serves a run executing on A, live, to a client attached through B: the same events, same ids, through the end", async () => {
    const threadId = `t-follow-${process.pid}-${Date.now()}`;
    const release = a.hold();
    const onA = readSseFrames(await postRun(a, { threadId, runId: `${threadId}-r1` }));
    await onA.until(10);
    const throughB = readSseFrames(await attachTo(b, threadId));
    await throughB.until(10);
    // B serves the live tail: the run is still going on A.
    expect((await b.store.getRun(`${threadId}-r1`))?.status).toBe("running");
    // B's record and chain call it going, not lost: A runs it.
    const headers = { "x-user": "kim" };
    const record = (await (await b.tether.app.request(`/api/runs/${threadId}-r1/record`, { headers })).json()) as { complete: boolean; incomplete?: unknown };
    expect(record).toMatchObject({ complete: false });
    expect(record.incomplete).toBeUndefined();
    const chain = (await (await b.tether.app.request(`/api/threads/${threadId}/runs`, { headers })).json()) as { runs: Array<{ complete: boolean }> };
    expect(chain.runs).toHaveLength(1);
    release();
    const [fromA, fromB] = await Promise.all([onA.all(), throughB.all()]);

    expect(fromA.at(-1)!.data.type).toBe("RUN_FINISHED");
    expect(fromB.map((frame) => frame.id)).toEqual(fromA.map((frame) => frame.id));
    expect(fromB.map((frame) => frame.data)).toEqual(fromA.map((frame) => frame.data));
  });

  it("gives a reconnect through B with a Last-Event-ID from the middle of the run exactly the events it missed", async () => {
    const threadId = `t-reconnect-${process.pid}-${Date.now()}`;
    const runId = `${threadId}-r1`;
    const release = a.hold();
    const onA = readSseFrames(await postRun(a, { threadId, runId }));
    const held = (await onA.until(40))[39]!;
    expect(held.id).toBe(`${runId}:40`);
    // The connection to A broke after event 40; the balancer sends the reconnect to B, while the run goes on.
    const throughB = readSseFrames(await attachTo(b, threadId, held.id));
    await throughB.until(5);
    expect((await b.store.getRun(runId))?.status).toBe("running");
    release();
    const resumed = await throughB.all();
    const whole = await onA.all();

    const seqs = resumed.map(seqOf);
    expect(seqs[0]).toBe(41);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => 41 + index));
    expect(resumed.map((frame) => frame.data)).toEqual(whole.slice(40).map((frame) => frame.data));
    expect(resumed.at(-1)!.data.type).toBe("RUN_FINISHED");
  });

  it("repeats nothing to a reconnect through B holding the newest stored event of a run whose instance has not reached Redis", async () => {
    const threadId = `t-unpublished-${process.pid}-${Date.now()}`;
    const runId = `${threadId}-r1`;
    // A run executing elsewhere whose events are stored but not in Redis (its instance cannot reach it, or has not yet).
    const event = (type: EventType, extra: object = {}) => ({ type, threadId, runId, ...extra }) as BaseEvent;
    const text = (delta: string) => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta }) as BaseEvent;
    await a.store.beginRun({
      thread: { threadId, agentId: "test", ownerId: "kim" },
      run: { runId, userId: "kim", input: {}, log: [] },
      events: sequenceEvents([event(EventType.RUN_STARTED)], 1),
      messages: [],
      resolvedToolCallIds: [],
    });
    await a.store.appendEvents(runId, sequenceEvents([text("a"), text("b")], 2));

    const throughB = readSseFrames(await attachTo(b, threadId, `${runId}:3`));
    await a.store.finishRun({ runId, status: "finished", events: sequenceEvents([event(EventType.RUN_FINISHED)], 4) });
    expect((await throughB.all()).map((frame) => frame.id)).toEqual([`${runId}:4`]);
  });

  it("lets the thread's next run start through B as soon as B's client heard RUN_FINISHED", async () => {
    const threadId = `t-next-${process.pid}-${Date.now()}`;
    const onA = readSseFrames(await postRun(a, { threadId, runId: `${threadId}-r1` }));
    await onA.until(5);
    const throughB = await readSseFrames(await attachTo(b, threadId)).all();
    expect(throughB.at(-1)!.data.type).toBe("RUN_FINISHED");
    const next = await readSseFrames(await postRun(b, { threadId, runId: `${threadId}-r2` })).all();
    expect(next[0]!.data.type).toBe("RUN_STARTED");
    expect(next.at(-1)!.data.type).toBe("RUN_FINISHED");
    await onA.all();
  });
});
