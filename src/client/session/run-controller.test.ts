import type { BrowserToolHandler } from "@tether-agent/tether/client";
import { createMemoryStorage } from "@tether-agent/tether/testing";
import { describe, expect, it, vi } from "vitest";
import { createScriptedApp, openPanel } from "../../../test/helpers/scripted-app.ts";
import { createAgentSession } from "./session.ts";

type App = Awaited<ReturnType<typeof createScriptedApp>>;

/** The run controller, through the public session: a session of kim's on a scripted app in-process. */
function sessionOn(app: App, storage: Storage = createMemoryStorage()) {
  return createAgentSession({
    api: "http://tether.test/api",
    agentId: "test",
    threadId: "thread_1",
    headers: { "x-user": "kim" },
    storage,
    drift: "ignore",
    fetch: (url, init) => Promise.resolve(app.tether.app.request(String(url), init)),
  });
}

const succeeded = () => ({ status: "succeeded" as const, stage: "displayed" as const });

describe("the run controller", () => {
  it("carries follow-up outcomes through as many continuation runs as the agent asks for, each a tool-result run of the one before", async () => {
    const app = await createScriptedApp([
      { toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] },
      { toolCalls: [{ toolName: "openPanel", input: { panel: "invoices" } }] },
      { text: "Both are open." },
    ]);
    const execute = vi.fn<BrowserToolHandler["execute"]>(succeeded);
    const session = sessionOn(app);
    session.registerTool({ spec: openPanel, execute });
    await session.send("open billing, then invoices");
    expect(execute.mock.calls.map(([args]) => args)).toEqual([{ panel: "billing" }, { panel: "invoices" }]);
    const runs = await app.store.listRuns("thread_1");
    expect(runs.map((run) => run.trigger?.kind)).toEqual(["user-message", "tool-result", "tool-result"]);
    expect(runs[1]!.parentRunId).toBe(runs[0]!.runId);
    expect(runs[2]!.parentRunId).toBe(runs[1]!.runId);
    expect(session.getState()).toMatchObject({ running: false, runId: runs[2]!.runId, error: undefined });
    expect(session.regenerableAnswer()).toBe(session.getState().messages.at(-1)!.id);
    await app.tether.close();
  });

  it("answers an approval in one resume run, and the call it approved runs then, once", async () => {
    const app = await createScriptedApp([{ toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] }, { text: "Billing is open." }], {
      browserTools: [{ ...openPanel, needsApproval: true }],
    });
    const execute = vi.fn<BrowserToolHandler["execute"]>(succeeded);
    const session = sessionOn(app);
    session.registerTool({ spec: openPanel, execute });
    await session.send("open billing");
    const [interrupt] = session.getState().interrupts;
    expect(execute).not.toHaveBeenCalled();
    await session.answer(interrupt!.id, { approved: true });
    expect(execute).toHaveBeenCalledTimes(1);
    expect((await app.store.listRuns("thread_1")).map((run) => run.trigger?.kind)).toEqual(["user-message", "resume", "tool-result"]);
    expect(session.getState().interrupts).toEqual([]);
    await app.tether.close();
  });

  it("follows a run another page started without acting on it: its middleware reads the followed events as not live", async () => {
    const app = await createScriptedApp([{ toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] }, { text: "Billing is open." }], {
      chunkDelayMs: 20,
    });
    const mine = vi.fn<BrowserToolHandler["execute"]>(succeeded);
    const theirs = vi.fn<BrowserToolHandler["execute"]>(succeeded);
    const starter = sessionOn(app);
    starter.registerTool({ spec: openPanel, execute: mine });
    const follower = sessionOn(app); // another tab: its own journal, so none of the runs is its own
    follower.registerTool({ spec: openPanel, execute: theirs });
    const sending = starter.send("open billing");
    await expect
      .poll(async () => (await (await app.tether.app.request("http://tether.test/api/threads/thread_1", { headers: { "x-user": "kim" } })).json()).activeRun)
      .not.toBeNull();
    await follower.restore();
    await sending;
    expect(mine).toHaveBeenCalledTimes(1);
    expect(theirs).not.toHaveBeenCalled();
    expect(follower.getState()).toMatchObject({ running: false, observing: false });
    expect(follower.getState().error).toBeUndefined();
    expect(follower.getState().activities.map((activity) => activity.toolName)).toEqual(["openPanel"]);
    await app.tether.close();
  });

  it("refuses an approval's answer and a click while a run goes", async () => {
    const app = await createScriptedApp([{ text: "A long answer." }], { chunkDelayMs: 10 });
    const session = sessionOn(app);
    const sending = session.send("hello");
    await expect(session.answer("interrupt_1", { approved: true })).rejects.toMatchObject({ code: "run_in_progress" });
    await expect(
      session.act({ name: "pick", surfaceId: "s", sourceComponentId: "c", context: {}, timestamp: new Date(0).toISOString() }),
    ).rejects.toMatchObject({
      code: "run_in_progress",
    });
    await sending;
    await app.tether.close();
  });
});
