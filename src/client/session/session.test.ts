import type { BrowserToolHandler, ToolDispatchTiming } from "@tether-agent/tether/client";
import { createMemoryStorage } from "@tether-agent/tether/testing";
import { describe, expect, it, vi } from "vitest";
import { createScriptedApp, openPanel } from "../../../test/helpers/scripted-app.ts";
import { createAgentSession } from "./session.ts";

/** A session of kim's on a scripted Tether app in-process (its `fetch` is `app.request`). */
function sessionOn(
  app: Awaited<ReturnType<typeof createScriptedApp>>,
  options: { threadId?: string; storage?: Storage; onToolDispatch?: (timing: ToolDispatchTiming) => void; drift?: "throw" | "ignore" } = {},
) {
  return createAgentSession({
    api: "http://tether.test/api",
    agentId: "test",
    threadId: options.threadId ?? "thread_1",
    headers: { "x-user": "kim" },
    storage: options.storage ?? createMemoryStorage(),
    drift: options.drift ?? "throw",
    fetch: (url, init) => Promise.resolve(app.tether.app.request(String(url), init)),
    ...(options.onToolDispatch ? { onToolDispatch: options.onToolDispatch } : {}),
  });
}

describe("createAgentSession", () => {
  it("leaves this tab's own run alone when restore() is called while it streams: its browser call still runs, once", async () => {
    const app = await createScriptedApp(
      [
        { text: "Opening billing now, one moment please while I look this up for you.", toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] },
        { text: "Billing is open." },
      ],
      { chunkDelayMs: 30 },
    );
    const execute = vi.fn<BrowserToolHandler["execute"]>(() => ({ status: "succeeded", stage: "displayed" }));
    const session = sessionOn(app, { drift: "ignore" });
    session.registerTool({ spec: openPanel, execute });
    const sending = session.send("open billing");
    const thread = async () => (await app.tether.app.request("http://tether.test/api/threads/thread_1", { headers: { "x-user": "kim" } })).json();
    await expect.poll(async () => ((await thread()) as { activeRun: unknown }).activeRun).not.toBeNull();
    // e.g. an app's mount effect or a "reconnect" button, while the answer streams
    await Promise.all([sending, session.restore()]);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(session.getState().activities.map((activity) => activity.status)).toEqual(["succeeded"]);
    await app.tether.close();
  });

  it("executes a browser call once at its TOOL_CALL_END, and the continuation run carries its outcome to the agent", async () => {
    const app = await createScriptedApp([{ toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] }, { text: "Billing is open." }]);
    const execute = vi.fn<BrowserToolHandler["execute"]>(() => ({ status: "succeeded", stage: "displayed" }));
    const session = sessionOn(app);
    session.registerTool({ spec: openPanel, execute });
    await session.send("open billing");
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]![0]).toEqual({ panel: "billing" });
    expect(app.model.calls).toHaveLength(2);
    const state = session.getState();
    expect(state.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(state.messages.at(-1)).toMatchObject({ role: "assistant", content: "Billing is open." });
    expect(state.activities).toEqual([expect.objectContaining({ toolName: "openPanel", location: "browser", status: "succeeded" })]);
    expect(state).toMatchObject({ running: false, observing: false, error: undefined });
    await app.tether.close();
  });

  it("reports each dispatch as it happens: the TOOL_CALL_END read, then the tool called", async () => {
    const app = await createScriptedApp([{ toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] }, { text: "Done." }]);
    const timings: ToolDispatchTiming[] = [];
    let calledAt = 0;
    const session = sessionOn(app, { onToolDispatch: (timing) => timings.push(timing) });
    session.registerTool({
      spec: openPanel,
      execute: () => {
        calledAt = performance.now();
        return { status: "succeeded", stage: "displayed" };
      },
    });
    await session.send("open billing");
    expect(timings).toEqual([expect.objectContaining({ toolName: "openPanel", toolCallId: session.getState().activities[0]!.toolCallId })]);
    const [timing] = timings;
    expect(timing!.endArrivedAt).toBeLessThanOrEqual(timing!.dispatchedAt);
    expect(timing!.dispatchedAt).toBeLessThanOrEqual(calledAt);
    await app.tether.close();
  });

  it("declares the registered tools with every run and refuses a second message while one runs", async () => {
    const app = await createScriptedApp([{ text: "Hello." }], { chunkDelayMs: 5 });
    const session = sessionOn(app);
    session.registerTool({ spec: openPanel, execute: () => ({ status: "succeeded", stage: "displayed" }) });
    const first = session.send("hi");
    await expect(session.send("again")).rejects.toMatchObject({ code: "run_in_progress" });
    await first;
    expect((app.model.calls[0]!.tools ?? []).map((tool) => tool.name)).toContain("openPanel");
    await app.tether.close();
  });
});
