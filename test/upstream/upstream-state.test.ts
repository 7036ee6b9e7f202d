import { HttpAgent, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

/**
 * An upstream agent's shared state: it is sent the run's state, and its STATE_SNAPSHOT and
 * STATE_DELTA change the run's state through Tether's holder (checked against the agent's schema,
 * re-sent in Tether's sequence, stored), so the client, the thread and the next run agree on it.
 */

const sent: RunAgentInput[] = [];
/** An upstream that counts its runs in the state, and then tries to break the schema. */
const counter = {
  run(input: RunAgentInput): BaseEvent[] {
    sent.push(structuredClone(input));
    const count = (input.state as { count: number }).count;
    return [
      { type: "RUN_STARTED", threadId: input.threadId, runId: input.runId },
      { type: "STATE_SNAPSHOT", snapshot: { ...input.state, mood: "calm" } },
      { type: "STATE_DELTA", delta: [{ op: "replace", path: "/count", value: count + 1 }] },
      { type: "STATE_DELTA", delta: [{ op: "replace", path: "/count", value: "many" }] },
      { type: "TEXT_MESSAGE_START", messageId: `${input.runId}-m`, role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: `${input.runId}-m`, delta: `Run ${count + 1}.` },
      { type: "TEXT_MESSAGE_END", messageId: `${input.runId}-m` },
      { type: "RUN_FINISHED", threadId: input.threadId, runId: input.runId },
    ] as BaseEvent[];
  },
};

let tether: TetherApp;
const store = createMemoryRunStore();
beforeAll(async () => {
  const agent = defineAgent({
    id: "front",
    upstream: counter,
    state: { schema: z.object({ count: z.number().int(), mood: z.string().optional() }), initial: { count: 0 } },
  });
  tether = await createTetherApp({ agents: [agent], authenticate: () => ({ id: "kim" }), store, logger: silentLogger });
});
afterAll(() => tether?.close());

describe("an upstream agent's shared state", () => {
  it("is sent the run's state; its snapshot and delta reach the client and the store, and one the schema refuses is logged, not sent", async () => {
    const agent = new HttpAgent({
      url: "http://tether.test/api/agents/front/run",
      threadId: "up-state",
      fetch: (url: string, init?: RequestInit) => Promise.resolve(tether.app.request(url, init)),
    });
    const events: BaseEvent[] = [];
    agent.addMessage({ id: "u1", role: "user", content: "count" });
    await agent.runAgent({ runId: "up-state-r1" }, { onEvent: ({ event }) => void events.push(event) });

    expect(sent[0]!.state).toEqual({ count: 0 });
    expect(events.filter((event) => event.type.startsWith("STATE_"))).toMatchObject([
      { type: "STATE_SNAPSHOT", snapshot: { count: 0 } },
      { type: "STATE_SNAPSHOT", snapshot: { count: 0, mood: "calm" } },
      { type: "STATE_DELTA", delta: [{ op: "replace", path: "/count", value: 1 }] },
    ]);
    expect(agent.state).toEqual({ count: 1, mood: "calm" });
    expect((await store.getThread("up-state"))?.state).toEqual({ count: 1, mood: "calm" });
    const log = (await store.getRun("up-state-r1"))!.log.map((entry) => entry.message).join("\n");
    expect(log).toMatch(
      /STATE_DELTA \(The state change \(replace "\/count"\) was refused: the state it leaves does not match the state schema: \/count must be integer/,
    );

    // The next run, from a client that sends no state, starts from the stored one.
    const fresh = new HttpAgent({ url: "http://tether.test/api/agents/front/run", threadId: "up-state", fetch: agent.fetch });
    fresh.setMessages(agent.messages);
    fresh.addMessage({ id: "u2", role: "user", content: "again" });
    await fresh.runAgent({ runId: "up-state-r2" });
    expect(sent[1]!.state).toEqual({ count: 1, mood: "calm" });
    expect(fresh.state).toEqual({ count: 2, mood: "calm" });
  });
});
