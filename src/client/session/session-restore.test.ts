import type { Message } from "@ag-ui/core";
import { createCountingIds } from "@tether-agent/tether/testing";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, silentLogger } from "@tether-agent/tether/server";
import { createMemoryStorage, createScriptedModel } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "./session.ts";

type HistoryMode = "client" | "server";

/** A Tether app in-process whose one agent answers slowly, in the given history mode; sessions reach it through `app.request`. */
async function slowApp(history: HistoryMode) {
  const model = createScriptedModel([{ text: "Leftover rice makes a good egg fried rice, or a burrito bowl." }], { chunkDelayMs: 15 });
  const tether = await createTetherApp({
    agents: [defineAgent({ id: "chef", model, history })],
    authenticate: () => ({ id: "kim" }),
    store: createMemoryRunStore(),
    logger: silentLogger,
    ids: createCountingIds(),
  });
  const storage = createMemoryStorage();
  const open = () =>
    createAgentSession({
      api: "http://tether.test/api",
      agentId: "chef",
      threadId: "thread_1",
      storage,
      drift: "ignore",
      fetch: (url, init) => Promise.resolve(tether.app.request(String(url), init)),
    });
  return { open, tether };
}

const said = (messages: Message[]) => messages.map((message) => [message.role, message.content]);

describe("a session restored while a run is going (a reload)", () => {
  it.each<HistoryMode>(["client", "server"])("shows the whole conversation once the run ends, the question included (%s history)", async (history) => {
    const { open, tether } = await slowApp(history);
    const first = open();
    const asking = first.send("something quick with leftover rice?");
    // The run is streaming: the page reloads, and a new session of the same tab follows it.
    await expect.poll(async () => (await (await tether.app.request("http://tether.test/api/threads/thread_1")).json()).activeRun).not.toBeNull();
    const reloaded = open();
    await reloaded.restore();
    await asking;
    expect(said(reloaded.getState().messages)).toEqual([
      ["user", "something quick with leftover rice?"],
      ["assistant", "Leftover rice makes a good egg fried rice, or a burrito bowl."],
    ]);
    await tether.close();
  });
});
