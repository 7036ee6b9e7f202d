import { EventType, verifyEvents, type BaseEvent } from "@ag-ui/client";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { defineBrowserTool, toAgUiTool } from "@tether-agent/tether/protocol";
import { createMemoryRunStore, type RunStore } from "@tether-agent/tether/store";
import { defineTool } from "@tether-agent/tether/server";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import type { SseFrame } from "@tether-agent/tether/testing";
import { from, lastValueFrom, toArray } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedApp, openPanel, types, type ScriptedApp } from "./helpers/scripted-app.ts";

const panelTool = toAgUiTool(openPanel);
const user = (id: string, content: string) => ({ id, role: "user" as const, content });
const regenerate = (messageId: string, parentRunId?: string) => ({
  tether: { trigger: { kind: "regenerate", messageId, ...(parentRunId ? { parentRunId } : {}) } },
});
const promptText = (call: LanguageModelV3CallOptions) => JSON.stringify(call.prompt);
const verified = (frames: SseFrame[]) => lastValueFrom(from(frames.map((frame) => frame.data as BaseEvent)).pipe(verifyEvents(), toArray()));
const textOf = (frames: SseFrame[]) =>
  frames
    .filter((frame) => frame.data.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((frame) => frame.data.delta)
    .join("");

const stores: RunStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function thread(app: ScriptedApp, threadId = "t1") {
  const response = await app.tether.app.request(`/api/threads/${threadId}`, { headers: { "x-user": "kim" } });
  return (await response.json()) as { messages: Array<{ id: string; role: string; content?: string }>; pendingToolCalls?: unknown[] };
}

/** "open the reports panel": the model opens it in the browser, hears it opened, and says so. */
async function answeredStory(steps: Parameters<typeof createScriptedApp>[0] = [], options: Parameters<typeof createScriptedApp>[1] = {}) {
  const app = await createScriptedApp(
    [{ toolCalls: [{ toolName: "openPanel", input: { panel: "reports" }, toolCallId: "call_1" }] }, { text: "The reports panel is open." }, ...steps],
    options,
  );
  await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "open the reports panel")], tools: [panelTool] });
  const outcome = { id: "tool_1", role: "tool" as const, toolCallId: "call_1", content: '{"status":"succeeded"}' };
  await app.run({
    threadId: "t1",
    runId: "r2",
    messages: [user("u1", "open the reports panel"), outcome],
    tools: [panelTool],
    forwardedProps: { tether: { trigger: { kind: "tool-result", parentRunId: "r1", toolCallIds: ["call_1"] } } },
  });
  return app;
}

describe("regenerating the last answer (trigger regenerate)", () => {
  it("gives the last answer's words again: they leave the thread and the model's history, what was done stays, and clients are told by a snapshot", async () => {
    const store = createSqliteRunStore({ filename: ":memory:" });
    stores.push(store);
    const app = await answeredStory([{ text: "Opened the reports panel for you." }, { text: "You're welcome." }], { store });
    const before = (await thread(app)).messages;
    expect(before.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);

    const frames = await app.run({
      threadId: "t1",
      runId: "r3",
      messages: [user("u1", "open the reports panel")],
      tools: [panelTool],
      forwardedProps: regenerate("u1"),
    });

    expect([...new Set(types(frames))]).toEqual([
      "RUN_STARTED",
      "MESSAGES_SNAPSHOT",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    expect(frames[1]!.data.messages).toEqual(before.slice(0, 3));
    expect(textOf(frames)).toBe("Opened the reports panel for you.");
    await verified(frames);
    // The model knows the panel opened (that was done), and not what it said about it.
    const asked = promptText(app.model.calls[2]!);
    expect(asked).toContain("open the reports panel");
    expect(asked).toContain("call_1");
    expect(asked).toContain("succeeded");
    expect(asked).not.toContain("The reports panel is open.");
    const after = await thread(app);
    expect(after.messages.map((message) => [message.role, message.content ?? ""])).toEqual([
      ["user", "open the reports panel"],
      ["assistant", ""],
      ["tool", '{"status":"succeeded"}'],
      ["assistant", "Opened the reports panel for you."],
    ]);

    // The conversation goes on from the new answer.
    await app.run({ threadId: "t1", runId: "r4", messages: [...after.messages, user("u2", "thanks")] as never, tools: [panelTool] });
    const next = promptText(app.model.calls[3]!);
    expect(next).toContain("Opened the reports panel for you.");
    expect(next).not.toContain("The reports panel is open.");

    // The record says why r3 exists and which run's answer it replaced; r2's record still holds the words it gave.
    const record = await (await app.tether.app.request("/api/runs/r3/record", { headers: { "x-user": "kim" } })).json();
    expect(record.start.trigger).toEqual({ kind: "regenerate", messageId: "u1" });
    expect((await store.getRun("r3"))?.parentRunId).toBe("r2");
    const replaced = await (await app.tether.app.request("/api/runs/r2/record", { headers: { "x-user": "kim" } })).json();
    expect(JSON.stringify(replaced.modelCalls)).toContain("The reports panel is open.");
    const first = await (await app.tether.app.request("/api/runs/r1/record", { headers: { "x-user": "kim" } })).json();
    expect(JSON.stringify(first)).toContain('{\\"panel\\":\\"reports\\"}');
  });

  it("gives a whole answer in words again, and an approved action stays done", async () => {
    const close = defineTool({
      name: "closeRequest",
      description: "Closes a request.",
      parameters: z.object({ id: z.string() }),
      needsApproval: true,
      execute: () => "closed",
    });
    const app = await createScriptedApp(
      [
        { text: "Hello!" },
        { text: "Hi there." },
        { toolCalls: [{ toolName: "closeRequest", input: { id: "R-1" } }] },
        { text: "Closed R-1." },
        { text: "R-1 is closed now." },
      ],
      { tools: [close] },
    );
    await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "hi")] });
    await app.run({ threadId: "t1", runId: "r2", messages: [user("u1", "hi")], forwardedProps: regenerate("u1") });
    expect((await thread(app)).messages.map((message) => message.content)).toEqual(["hi", "Hi there."]);

    const asked = await app.run({ threadId: "t1", runId: "r3", messages: [user("u2", "close R-1")] });
    const interruptId = asked.at(-1)!.data.outcome.interrupts[0].id as string;
    await app.run({ threadId: "t1", runId: "r4", resume: [{ interruptId, status: "resolved", payload: { approved: true } }] });
    const frames = await app.run({ threadId: "t1", runId: "r5", forwardedProps: regenerate("u2") });

    expect(textOf(frames)).toBe("R-1 is closed now.");
    const asked5 = promptText(app.model.calls[4]!);
    expect(asked5).toContain("closeRequest");
    expect(asked5).toContain("closed");
    expect(asked5).not.toContain("Closed R-1.");
    expect((await thread(app)).messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "tool", "assistant"]);
  });

  it("sets aside a render-only call the answer left waiting (its cards go with its words); refuses while a follow-up's outcome is on its way", async () => {
    const showCards = defineBrowserTool({
      name: "showCards",
      kind: "render-only",
      description: "Shows cards.",
      parameters: { type: "object", properties: { ids: { type: "array", items: { type: "string" } } }, required: ["ids"], additionalProperties: false },
    });
    const app = await createScriptedApp(
      [
        { text: "Here are two.", toolCalls: [{ toolName: "showCards", input: { ids: ["a", "b"] } }] },
        { text: "Here are three." },
        { toolCalls: [{ toolName: "openPanel", input: { panel: "reports" } }] },
      ],
      { browserTools: [openPanel, showCards] },
    );
    const cardsTool = toAgUiTool(showCards);
    await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "show cards")], tools: [cardsTool] });
    expect(await app.store.getPendingToolCalls("t1")).toHaveLength(1);

    const frames = await app.run({ threadId: "t1", runId: "r2", messages: [user("u1", "show cards")], tools: [cardsTool], forwardedProps: regenerate("u1") });

    expect(frames.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(await app.store.getPendingToolCalls("t1")).toEqual([]);
    expect((await thread(app)).messages.map((message) => message.content)).toEqual(["show cards", "Here are three."]);

    // A screen a browser may be opening right now: its outcome must find its call.
    await app.run({ threadId: "t2", runId: "r3", messages: [user("u2", "open reports")], tools: [panelTool] });
    const response = await app.post({ threadId: "t2", runId: "r4", forwardedProps: regenerate("u2") });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "tool_results_pending",
      message: expect.stringMatching(/still being carried out in the browser \(openPanel\)/),
    });
  });

  it("answers again a question whose run failed, with nothing to set aside", async () => {
    const app = await createScriptedApp([{ parts: [], throwAfter: new Error("provider down") }, { text: "Here it is." }]);
    await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "hello")] });
    const frames = await app.run({ threadId: "t1", runId: "r2", messages: [user("u1", "hello")], forwardedProps: regenerate("u1") });
    expect(textOf(frames)).toBe("Here it is.");
    expect((await thread(app)).messages.map((message) => message.content)).toEqual(["hello", "Here it is."]);
  });

  describe("refuses, before anything is stored", () => {
    async function refused(app: ScriptedApp, body: Parameters<ScriptedApp["post"]>[0], user = "kim") {
      const before = { messages: await app.store.getMessages(body.threadId), runs: await app.store.listRuns(body.threadId) };
      const response = await app.post(body, user);
      expect(await app.store.getMessages(body.threadId)).toEqual(before.messages);
      expect(await app.store.listRuns(body.threadId)).toEqual(before.runs);
      return { status: response.status, error: ((await response.json()) as { error: { code: string; message: string } }).error };
    }

    it("an answer the conversation has moved past (a stale tab)", async () => {
      const app = await answeredStory([{ text: "You're welcome." }]);
      await app.run({ threadId: "t1", runId: "r3", messages: [user("u2", "thanks")] });
      const { status, error } = await refused(app, {
        threadId: "t1",
        runId: "r4",
        messages: [user("u1", "open the reports panel")],
        forwardedProps: regenerate("u1"),
      });
      expect(status).toBe(409);
      expect(error).toMatchObject({ code: "history_conflict", message: expect.stringMatching(/no longer the thread's last: the conversation moved on/) });
    });

    it("a trigger that names no message, or a message the thread does not have", async () => {
      const app = await answeredStory();
      const unnamed = await refused(app, { threadId: "t1", runId: "r3", forwardedProps: { tether: { trigger: { kind: "regenerate" } } } });
      expect(unnamed).toMatchObject({ status: 400, error: { code: "invalid_trigger", message: expect.stringMatching(/messageId/) } });
      const unknown = await refused(app, { threadId: "t1", runId: "r3", forwardedProps: regenerate("u9") });
      expect(unknown).toMatchObject({ status: 409, error: { code: "history_conflict", message: expect.stringMatching(/u9 is not a user message/) } });
      const fresh = await refused(app, { threadId: "t2", runId: "r3", forwardedProps: regenerate("u1") });
      expect(fresh.error.code).toBe("history_conflict");
    });

    it("new messages riding along, or the replaced answer sent back", async () => {
      const app = await answeredStory();
      const added = await refused(app, {
        threadId: "t1",
        runId: "r3",
        messages: [user("u1", "open the reports panel"), user("u2", "and faster")],
        forwardedProps: regenerate("u1"),
      });
      expect(added).toMatchObject({ status: 400, error: { code: "invalid_trigger", message: expect.stringMatching(/adds no messages/) } });
      const stored = (await thread(app)).messages;
      const resent = await refused(app, { threadId: "t1", runId: "r3", messages: stored as never, forwardedProps: regenerate("u1") });
      expect(resent).toMatchObject({
        status: 409,
        error: { code: "history_conflict", message: expect.stringMatching(/belongs to the answer being replaced/) },
      });
      const edited = await refused(app, { threadId: "t1", runId: "r3", messages: [user("u1", "open something else")], forwardedProps: regenerate("u1") });
      expect(edited).toMatchObject({ status: 409, error: { code: "history_conflict", message: expect.stringMatching(/differs from the stored thread/) } });
    });

    it("an answer waiting for an approval, and answers to approvals in the same run", async () => {
      const close = defineTool({
        name: "closeRequest",
        description: "Closes a request.",
        parameters: z.object({ id: z.string() }),
        needsApproval: true,
        execute: () => "closed",
      });
      const app = await createScriptedApp([{ toolCalls: [{ toolName: "closeRequest", input: { id: "R-1" } }] }], { tools: [close] });
      const frames = await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "close R-1")] });
      const interruptId = frames.at(-1)!.data.outcome.interrupts[0].id as string;
      const waiting = await refused(app, { threadId: "t1", runId: "r2", forwardedProps: regenerate("u1") });
      expect(waiting).toMatchObject({ status: 409, error: { code: "interrupt_pending", message: expect.stringMatching(/waits for an approval/) } });
      const withAnswer = await refused(app, { threadId: "t1", runId: "r2", forwardedProps: regenerate("u1"), resume: [{ interruptId, status: "cancelled" }] });
      expect(withAnswer).toMatchObject({ status: 400, error: { code: "invalid_trigger" } });
    });

    it("another user's thread", async () => {
      const app = await answeredStory();
      const { status, error } = await refused(app, { threadId: "t1", runId: "r3", forwardedProps: regenerate("u1") }, "lee");
      expect(status).toBe(403);
      expect(error.code).toBe("forbidden");
    });
  });

  it("refuses the id of a message set aside when it comes again, on every store, with a code and nothing written", async () => {
    for (const store of [createMemoryRunStore(), createSqliteRunStore({ filename: ":memory:" })]) {
      stores.push(store);
      const app = await answeredStory([{ text: "Opened." }], { store });
      await app.run({ threadId: "t1", runId: "r3", forwardedProps: regenerate("u1") });
      const kept = (await thread(app)).messages;
      const reused = { id: "call_1_answer", role: "user" as const, content: "thanks" };
      const setAsideId = (await store.getMessages("t1", { withSetAside: true })).find((message) => !kept.some((k) => k.id === message.id))!.id;
      const response = await app.post({ threadId: "t1", runId: "r4", messages: [...(kept as never[]), { ...reused, id: setAsideId }] });
      expect(response.status).toBe(409);
      expect(((await response.json()) as { error: { code: string; message: string } }).error).toMatchObject({
        code: "history_conflict",
        message: expect.stringMatching(/used before in this thread, by an answer since set aside/),
      });
      expect(await store.getRun("r4")).toBeUndefined();
      expect((await thread(app)).messages).toEqual(kept);
    }
  });

  it("in client history mode takes the history as the client cut it, and the stored thread loses the same words", async () => {
    const app = await createScriptedApp([{ text: "First." }, { text: "Second." }, { text: "Ok." }], { agent: { history: "client" } });
    await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "hello")] });
    const frames = await app.run({ threadId: "t1", runId: "r2", messages: [user("u1", "hello")], forwardedProps: regenerate("u1") });
    expect(textOf(frames)).toBe("Second.");
    expect(promptText(app.model.calls[1]!)).not.toContain("First.");
    expect((await thread(app)).messages.map((message) => message.content)).toEqual(["hello", "Second."]);
  });

  it("in client history mode, when the stored thread has moved on, takes the request as the reference and sets nothing aside", async () => {
    const app = await createScriptedApp([{ text: "First." }, { text: "Ok." }, { text: "Again." }], { agent: { history: "client" } });
    await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "hello")] });
    await app.run({
      threadId: "t1",
      runId: "r2",
      messages: [user("u1", "hello"), { id: "a1", role: "assistant", content: "First." } as never, user("u2", "thanks")],
    });
    const frames = await app.run({ threadId: "t1", runId: "r3", messages: [user("u1", "hello")], forwardedProps: regenerate("u1", "r2") });
    expect(textOf(frames)).toBe("Again.");
    expect(promptText(app.model.calls[2]!)).not.toContain("thanks");
    expect((await app.store.getMessages("t1")).map((message) => message.content)).toContain("thanks");
  });
});
