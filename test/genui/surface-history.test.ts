import { HttpAgent, type Message } from "@ag-ui/client";
import type { ActivityMessage } from "@ag-ui/core";
import { defineTool } from "@tether-agent/tether/server";
import { parseSseFrames, type ScriptedStep } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedApp, openPanel, type ScriptedApp } from "../helpers/scripted-app.ts";
import { R1042_BROKEN_CARD, R1042_CARD } from "../fixtures/surfaces.ts";

const render = (input: unknown): ScriptedStep => ({ toolCalls: [{ toolName: "render_a2ui", input }] });
const ask = (id: string, content: string) => ({ id, role: "user" as const, content });

/** A page on the app: the reference client, whose requests go to the app in-process. */
function page(app: ScriptedApp, threadId: string) {
  return new HttpAgent({
    url: "http://tether.test/api/agents/test/run",
    headers: { "x-user": "kim" },
    threadId,
    fetch: (url, init) => Promise.resolve(app.tether.app.request(new URL(url).pathname, init)),
  });
}

async function storedThread(app: ScriptedApp, threadId: string): Promise<Message[]> {
  const response = await app.tether.app.request(`/api/threads/${threadId}`, { headers: { "x-user": "kim" } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: Message[] }).messages;
}

const activities = (messages: Message[]) => messages.filter((message): message is ActivityMessage => message.role === "activity");
const shape = (messages: Message[]) => messages.map((message) => `${message.role}:${message.id}`);
/** What the model was sent, as text: an activity message would show its type or its content. */
const promptText = (app: ScriptedApp, call: number) => JSON.stringify(app.model.calls[call]!.prompt);

describe("generated surfaces in the stored thread", () => {
  it("keeps a valid surface in the thread once, after its tool result, with the operations and the id it had live", async () => {
    const app = await createScriptedApp([render(R1042_CARD), { text: "Here it is." }], { agent: { generatedUi: true } });
    const browser = page(app, "t1");
    browser.addMessage(ask("u1", "show R-1042 as a card"));
    await browser.runAgent();
    const [live] = activities(browser.messages);

    const stored = await storedThread(app, "t1");

    expect(activities(stored)).toEqual([live]);
    expect(live!.content).toHaveProperty("a2ui_operations");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "activity", "assistant"]);
    // The order the client built live, so a reloaded page shows the surface where it was.
    expect(shape(stored)).toEqual(shape(browser.messages));
  });

  it("keeps one message for a surface rendered at its second attempt: the final operations, under its one live id", async () => {
    const app = await createScriptedApp([render(R1042_BROKEN_CARD), render(R1042_CARD), { text: "Here it is." }], { agent: { generatedUi: true } });
    const browser = page(app, "t1");
    browser.addMessage(ask("u1", "show R-1042 as a card"));
    await browser.runAgent();

    const thread = await storedThread(app, "t1");
    const stored = activities(thread);

    expect(stored).toEqual(activities(browser.messages));
    expect(stored).toHaveLength(1);
    // Kept once it was final: after the result of the attempt that rendered it.
    expect(thread.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "activity", "assistant"]);
    expect(JSON.stringify(stored[0]!.content.a2ui_operations)).not.toContain("ghost");
    expect(stored[0]!.content).not.toHaveProperty("status");
  });

  it("keeps a surface that failed its three attempts as one failed message", async () => {
    const app = await createScriptedApp([render(R1042_BROKEN_CARD), render(R1042_BROKEN_CARD), render(R1042_BROKEN_CARD), { text: "I could not show it." }], {
      agent: { generatedUi: true },
    });
    const browser = page(app, "t1");
    browser.addMessage(ask("u1", "show R-1042 as a card"));
    await browser.runAgent();

    const thread = await storedThread(app, "t1");
    const stored = activities(thread);

    expect(stored).toEqual(activities(browser.messages));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.content).toMatchObject({ status: "failed", attempts: 3, maxAttempts: 3 });
    expect(thread.map((message) => message.role).slice(-3)).toEqual(["tool", "activity", "assistant"]);
  });

  it("keeps a surface the model never tried again as failed, once the run ends", async () => {
    const app = await createScriptedApp([render(R1042_BROKEN_CARD), { text: "Let me describe it instead." }], { agent: { generatedUi: true } });
    const browser = page(app, "t1");
    browser.addMessage(ask("u1", "show R-1042 as a card"));
    await browser.runAgent();

    const stored = activities(await storedThread(app, "t1"));

    expect(stored).toEqual(activities(browser.messages));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.content).toMatchObject({ status: "failed", error: "The model did not try again.", attempts: 1 });
  });

  it("takes the next user turn of a reloaded page (server history), and the model reads no activity message", async () => {
    const app = await createScriptedApp([render(R1042_CARD), { text: "Here it is." }, { text: "It is open." }], { agent: { generatedUi: true } });
    const first = page(app, "t1");
    first.addMessage(ask("u1", "show R-1042 as a card"));
    await first.runAgent();
    // A reload: the page restores the stored thread, as the session's restore() does.
    const reloaded = page(app, "t1");
    reloaded.setMessages(await storedThread(app, "t1"));
    expect(activities(reloaded.messages)).toEqual(activities(first.messages));

    reloaded.addMessage(ask("u2", "is it still open?"));
    await reloaded.runAgent();

    expect(reloaded.messages.at(-1)).toMatchObject({ role: "assistant", content: "It is open." });
    expect(activities(reloaded.messages)).toEqual(activities(first.messages));
    expect(app.model.calls).toHaveLength(3);
    expect(promptText(app, 2)).toContain("is it still open?");
    expect(promptText(app, 2)).not.toMatch(/a2ui-surface|a2ui_operations/);
  });

  it("takes the next run of a client-history agent, whose client keeps its surfaces and sends none of them", async () => {
    const app = await createScriptedApp([render(R1042_CARD), { text: "Here it is." }, { text: "It is open." }], {
      agent: { generatedUi: true, history: "client" },
    });
    const browser = page(app, "t1");
    browser.addMessage(ask("u1", "show R-1042 as a card"));
    await browser.runAgent();
    const [surface] = activities(browser.messages);

    browser.addMessage(ask("u2", "is it still open?"));
    await browser.runAgent();

    expect(browser.messages.at(-1)).toMatchObject({ role: "assistant", content: "It is open." });
    expect(activities(browser.messages)).toEqual([surface]);
    expect(promptText(app, 2)).not.toMatch(/a2ui-surface|a2ui_operations/);
    expect(activities(await storedThread(app, "t1"))).toEqual([surface]);
  });
});

describe("generated surfaces and the snapshot before an interrupt", () => {
  const close = defineTool({
    name: "closeRequest",
    description: "Closes a work request.",
    parameters: z.object({ requestId: z.string() }),
    needsApproval: true,
    execute: () => ({ closed: true }),
  });
  const steps: ScriptedStep[] = [
    render(R1042_CARD),
    { text: "Here it is." },
    // A second surface that fails validation, and the run stops on the question before the model can try again.
    {
      toolCalls: [
        { toolName: "render_a2ui", input: { ...R1042_BROKEN_CARD, surfaceId: "close-R-1042" } },
        { toolName: "closeRequest", input: { requestId: "R-1042" } },
      ],
    },
  ];

  it.each(["server", "client"] as const)("leaves the client every surface, each with its final content (%s history)", async (history) => {
    const app = await createScriptedApp(steps, { tools: [close], agent: { generatedUi: true, history } });
    const browser = page(app, "t1");
    browser.addMessage(ask("u1", "show R-1042 as a card"));
    await browser.runAgent();
    browser.addMessage(ask("u2", "show it again and close it"));
    let snapshot: Message[] | undefined;

    await browser.runAgent({}, { onMessagesSnapshotEvent: ({ event }) => void (snapshot = event.messages) });

    expect(browser.pendingInterrupts).toHaveLength(1);
    const shown = activities(browser.messages);
    expect(shown.map((surface) => surface.content.status ?? "operations")).toEqual(["operations", "failed"]);
    // Server history: the snapshot is the stored thread, every surface in it; client history: the client keeps its own.
    expect(activities(snapshot!)).toEqual(history === "server" ? shown : []);
    expect(activities(await storedThread(app, "t1"))).toEqual(shown);
  });
});

describe("a thread with surfaces, for the history check", () => {
  it("accepts a client that places a browser call's later result before the render result, as it did without surfaces", async () => {
    const app = await createScriptedApp(
      [
        {
          toolCalls: [
            { toolName: "openPanel", input: { panel: "detail" } },
            { toolName: "render_a2ui", input: R1042_CARD },
          ],
        },
        { text: "Opened." },
        { text: "Yes." },
      ],
      { agent: { generatedUi: true } },
    );
    const tools = [{ name: "openPanel", description: openPanel.description, parameters: openPanel.parameters }];
    const frames = await app.run({ threadId: "t1", runId: "r1", messages: [ask("u1", "open the detail and show it")], tools });
    const call = frames.find((frame) => frame.data.type === "TOOL_CALL_START" && frame.data.toolCallName === "openPanel")!.data.toolCallId as string;
    const outcome = { id: "res1", role: "tool" as const, toolCallId: call, content: JSON.stringify({ status: "succeeded" }) };
    const answered = await app.post({ threadId: "t1", runId: "r2", messages: [outcome], tools });
    expect(parseSseFrames(await answered.text()).at(-1)!.data.type).toBe("RUN_FINISHED");
    const stored = await app.store.getMessages("t1");
    // The browser's result came in a later run, so the thread keeps it after the step's surface.
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "activity", "tool", "assistant"]);
    const [question, calls, rendered, , opened, reply] = stored;

    // A client that orders a call's results as the calls were made, with no activity message, as the reference client sends.
    const response = await app.post({
      threadId: "t1",
      runId: "r3",
      messages: [question!, calls!, opened!, rendered!, reply!, ask("u2", "is it open?")] as never,
      tools,
    });

    expect(response.status, await response.clone().text()).toBe(200);
    expect(parseSseFrames(await response.text()).at(-1)!.data.type).toBe("RUN_FINISHED");
  });
});
