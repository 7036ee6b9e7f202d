import { EventType, verifyEvents, type BaseEvent } from "@ag-ui/client";
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { defineTool } from "@tether-agent/tether/server";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { from, lastValueFrom, toArray } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createScriptedApp, openPanel, types } from "../../../test/helpers/scripted-app.ts";

const panelTool = toAgUiTool(openPanel);
const user = (id: string, content: string) => ({ id, role: "user" as const, content });
const lookup = (execute: (args: { query: string }) => unknown = ({ query }) => ({ found: query })) =>
  defineTool({ name: "lookup", description: "Looks something up.", parameters: z.object({ query: z.string() }), execute });
const results = (frames: ReturnType<typeof parseSseFrames>) =>
  frames.filter((frame) => frame.data.type === EventType.TOOL_CALL_RESULT).map((frame) => frame.data);
const verified = (frames: ReturnType<typeof parseSseFrames>) =>
  lastValueFrom(from(frames.map((frame) => frame.data as BaseEvent)).pipe(verifyEvents(), toArray()));
const promptText = (call: LanguageModelV3CallOptions) => JSON.stringify(call.prompt);

describe("the run loop", () => {
  it("executes server tools, feeds their results back, and finishes when the model is done", async () => {
    const app = await createScriptedApp([{ toolCalls: [{ toolName: "lookup", input: { query: "badge" } }] }, { text: "Found it." }], { tools: [lookup()] });
    const frames = await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "find badge")] });
    expect(types(frames)).toEqual([
      "RUN_STARTED",
      "TOOL_CALL_START",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_ARGS",
      "TOOL_CALL_END",
      "TOOL_CALL_RESULT",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    expect(results(frames)[0].content).toBe('{"found":"badge"}');
    expect(promptText(app.model.calls[1]!)).toContain('"value":{"found":"badge"}');
    expect(frames.at(-1)!.data).toMatchObject({ outcome: { type: "success" }, usage: [{ provider: "tether.scripted", outputTokens: expect.any(Number) }] });
    await verified(frames);
  });

  it("stops at the step limit with step_limit_exceeded", async () => {
    const again = { toolCalls: [{ toolName: "lookup", input: { query: "more" } }] };
    const app = await createScriptedApp([again, again, again], { tools: [lookup()], agent: { maxSteps: 3 } });
    const frames = await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "loop")] });
    expect(frames.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "step_limit_exceeded" });
    expect(frames.at(-1)!.data.message).toMatch(/all 3 model steps/);
    expect(app.model.calls).toHaveLength(3);
    expect(await app.store.getRun("r1")).toMatchObject({ status: "error", error: { code: "step_limit_exceeded" } });
  });

  it("turns invalid arguments into an error result the model sees, and runs nothing", async () => {
    const execute = vi.fn(() => "ran");
    const app = await createScriptedApp(
      [
        {
          toolCalls: [
            { toolName: "lookup", input: { query: 42 } },
            { toolName: "openPanel", input: { panel: 7 } },
            { toolName: "lookup", input: "{not json" },
          ],
        },
        { text: "Sorry." },
      ],
      { tools: [lookup(execute)] },
    );
    const frames = await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "go")], tools: [panelTool] });
    expect(execute).not.toHaveBeenCalled();
    const errors = results(frames).map((result) => JSON.parse(result.content).error);
    expect(errors.map((error) => error.code)).toEqual(["invalid_arguments", "invalid_arguments", "invalid_arguments"]);
    expect(errors[0].message).toMatch(/\/query must be string/);
    expect(errors[2].message).toMatch(/not valid JSON/);
    // The browser call with bad arguments is answered, not left pending for the browser to run.
    expect(frames.at(-1)!.data.outcome).toEqual({ type: "success" });
    expect(promptText(app.model.calls[1]!)).toContain("error-json");
  });

  it("answers a call to a tool that does not exist, and a tool that throws, with error results", async () => {
    const app = await createScriptedApp(
      [
        {
          toolCalls: [
            { toolName: "teleport", input: {} },
            { toolName: "lookup", input: { query: "x" } },
          ],
        },
        { text: "Both failed." },
      ],
      {
        tools: [
          lookup(() => {
            throw new Error("index offline");
          }),
        ],
      },
    );
    const frames = await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "go")] });
    const [unknown, failed] = results(frames).map((result) => JSON.parse(result.content).error);
    expect(unknown.code).toBe("tool_unknown");
    expect(failed).toEqual({ code: "tool_failed", message: "lookup failed: index offline" });
    expect(frames.at(-1)!.data.type).toBe("RUN_FINISHED");
  });

  it("pairs parallel calls to one tool with their results by id, not by order", async () => {
    const slowFirst = async ({ query }: { query: string }) => {
      await new Promise((resolve) => setTimeout(resolve, query === "first" ? 40 : 1));
      return { answer: query };
    };
    const app = await createScriptedApp(
      [
        {
          toolCalls: [
            { toolName: "lookup", input: { query: "first" } },
            { toolName: "lookup", input: { query: "second" } },
          ],
        },
        { text: "Done." },
      ],
      { tools: [lookup(slowFirst)] },
    );
    const frames = await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "both")] });
    const argsById = new Map<string, string>();
    for (const frame of frames)
      if (frame.data.type === "TOOL_CALL_ARGS") argsById.set(frame.data.toolCallId, (argsById.get(frame.data.toolCallId) ?? "") + frame.data.delta);
    const [early, late] = results(frames);
    // The second call finished first and was sent first; each result still names its own call.
    expect(JSON.parse(early.content)).toEqual({ answer: "second" });
    expect(JSON.parse(late.content)).toEqual({ answer: "first" });
    for (const result of [early, late]) expect(JSON.parse(argsById.get(result.toolCallId)!).query).toBe(JSON.parse(result.content).answer);
    // The stored history keeps the model's order.
    const stored = await app.store.getMessages("t1");
    expect(stored.filter((message) => message.role === "tool").map((message) => JSON.parse(message.content as string).answer)).toEqual(["first", "second"]);
  });

  it("gives stable ids to calls that arrive without one, or with one the thread already used", async () => {
    const bare = (input: string): LanguageModelV3StreamPart[] => [
      { type: "tool-call", toolCallId: "", toolName: "lookup", input },
      {
        type: "finish",
        finishReason: { unified: "tool-calls", raw: undefined },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
      },
    ];
    const reused: LanguageModelV3StreamPart[] = [
      { type: "tool-input-start", id: "call_0", toolName: "lookup" },
      { type: "tool-input-delta", id: "call_0", delta: '{"query":"b"}' },
      { type: "tool-input-end", id: "call_0" },
      { type: "tool-call", toolCallId: "call_0", toolName: "lookup", input: '{"query":"b"}' },
    ];
    const first: LanguageModelV3StreamPart[] = [...reused.map((part) => ({ ...part }))];
    const app = await createScriptedApp([{ parts: bare('{"query":"a"}') }, { parts: first }, { parts: reused }, { text: "ok" }], { tools: [lookup()] });
    const frames = await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "go")] });
    const ids = frames.filter((frame) => frame.data.type === "TOOL_CALL_START").map((frame) => frame.data.toolCallId as string);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe("call_1"); // minted: the model sent none
    expect(ids[1]).toBe("call_0"); // the model's own, first use
    expect(ids[2]).toBe("call_2"); // minted: "call_0" was taken
    const stored = (await app.store.getMessages("t1")).flatMap((message) =>
      message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.id) : [],
    );
    expect(stored).toEqual(ids);
    expect(results(frames).map((result) => result.toolCallId)).toEqual(ids);
  });

  it("stops on a pending browser call, and closes it as unreported when the user moves on", async () => {
    const app = await createScriptedApp([{ toolCalls: [{ toolName: "openPanel", input: { panel: "inbox" } }] }, { text: "Noted." }]);
    const first = await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "open inbox")], tools: [panelTool] });
    const pending = first.at(-1)!.data.outcome.pendingToolCallIds;
    expect(pending).toHaveLength(1);
    expect(await app.store.getPendingToolCalls("t1")).toMatchObject([{ toolCallId: pending[0], toolName: "openPanel", arguments: '{"panel":"inbox"}' }]);

    const second = await app.run({ threadId: "t1", runId: "r2", messages: [user("u2", "never mind")], tools: [panelTool] });
    // The server added a message the client lacks, so it sends the thread first.
    expect(types(second).slice(0, 2)).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT"]);
    const closing = second[1]!.data.messages.find((message: { role: string }) => message.role === "tool");
    expect(JSON.parse(closing.content)).toMatchObject({ status: "unknown", reason: "no_result_reported" });
    expect(await app.store.getPendingToolCalls("t1")).toEqual([]);
    expect(promptText(app.model.calls[1]!)).toContain("no_result_reported");
  });

  it("ends a cancelled run with outcome cancelled, a valid stream and the upstream request aborted", async () => {
    const app = await createScriptedApp([{ text: "This is a long answer that streams slowly, word after word after word." }], { chunkDelayMs: 25 });
    const response = await app.post({ threadId: "t1", runId: "r1", messages: [user("u1", "talk")] });
    const reader = response.body!.getReader();
    await reader.read(); // the run is under way
    const cancel = await app.tether.app.request("/api/runs/r1/cancel", {
      method: "POST",
      headers: { "x-user": "kim", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(cancel.status).toBe(202);
    let body = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      body += new TextDecoder().decode(value);
    }
    const all = parseSseFrames(body);
    expect(all.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
    expect(app.model.calls[0]!.abortSignal?.aborted).toBe(true);
    expect(await app.store.getRun("r1")).toMatchObject({ status: "cancelled", outcome: { type: "cancelled" } });
    const log = await app.store.readEvents("r1");
    await lastValueFrom(from(log.map((entry) => entry.event)).pipe(verifyEvents(), toArray()));
    // Only the owner may cancel, and a finished run cannot be cancelled again.
    const again = await app.tether.app.request("/api/runs/r1/cancel", {
      method: "POST",
      headers: { "x-user": "kim", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(again.status).toBe(409);
  });
});
