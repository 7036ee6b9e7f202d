import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { APICallError, type LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { createScriptedApp } from "../helpers/scripted-app.ts";
import { recordClient, startedCalls, toolMessage, userMessage, type RecordClient } from "../record/record-client.ts";

/**
 * The spans Tether's runs leave, caught by the SDK's in-memory exporter: the
 * Workdesk story through the demo server (a run that navigates, the run its
 * outcome starts, an approval asked and answered), and a run whose model fails.
 */

const tools = [toAgUiTool(navigateToScreen)];
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
let server: DemoServer;
let client: RecordClient;
beforeAll(async () => {
  server = await startDemoServer({ telemetry: { tracerProvider: provider } });
  client = recordClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
  await provider.shutdown();
});
beforeEach(() => exporter.reset());

/** A run's span and its children, in the order they started. */
function spansOfRun(runId: string) {
  const spans = exporter.getFinishedSpans();
  const run = spans.find((span) => span.attributes["tether.run.id"] === runId);
  if (!run) throw new Error(`No span has tether.run.id ${runId}; spans: ${spans.map((span) => span.name).join(", ")}`);
  const children = spans
    .filter((span) => span.parentSpanContext?.spanId === run.spanContext().spanId)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  return { run, children };
}
const millis = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;

describe("spans of the Workdesk story", () => {
  it("trace a run as invoke_agent with a chat span per model call and an execute_tool span per tool call, its trace id in the record", async () => {
    const threadId = "otel-story";
    const frames = await client.run("kim", "workdesk", {
      threadId,
      runId: `${threadId}-r1`,
      messages: [userMessage(`${threadId}-u1`, "open the work request list")],
      tools,
      forwardedProps: { tether: { trigger: { kind: "user-message" } } },
    });
    const navigate = startedCalls(frames).find((call) => call.toolCallName === "navigateToScreen")!;
    const lookup = startedCalls(frames).find((call) => call.toolCallName === "lookupScreens")!;

    const { run, children } = spansOfRun(`${threadId}-r1`);
    expect(run.name).toBe("invoke_agent workdesk");
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.parentSpanContext).toBeUndefined();
    expect(run.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": "workdesk",
      "gen_ai.agent.name": "workdesk",
      "gen_ai.conversation.id": threadId,
      "tether.run.id": `${threadId}-r1`,
      "tether.run.trigger": "user-message",
      "tether.run.status": "finished",
      "tether.run.outcome": "success",
      "gen_ai.usage.output_tokens": expect.any(Number),
    });
    expect(run.status.code).toBe(SpanStatusCode.UNSET);
    expect(run.instrumentationScope.name).toBe("tether");

    expect(children.map((span) => span.name)).toEqual([
      "chat playbook:workdesk",
      "execute_tool lookupScreens",
      "chat playbook:workdesk",
      "execute_tool navigateToScreen",
    ]);
    const [firstCall, lookupSpan, secondCall, navigateSpan] = children as [ReadableSpan, ReadableSpan, ReadableSpan, ReadableSpan];
    expect(firstCall.kind).toBe(SpanKind.CLIENT);
    expect(firstCall.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "tether.playbook",
      "gen_ai.request.model": "playbook:workdesk",
      "gen_ai.response.finish_reasons": ["tool-calls"],
      "gen_ai.response.time_to_first_chunk": expect.any(Number),
      "gen_ai.usage.output_tokens": expect.any(Number),
      "tether.model_call.step": 1,
      "tether.model_call.tool_count": 5,
    });
    expect(secondCall.attributes["tether.model_call.step"]).toBe(2);
    expect(lookupSpan.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "lookupScreens",
      "gen_ai.tool.call.id": lookup.toolCallId,
      "gen_ai.tool.type": "extension",
      "tether.tool.location": "server",
      "tether.tool.status": "result",
    });
    // The server tool ran between the two model calls, and its span says when.
    expect(millis(lookupSpan.startTime)).toBeGreaterThanOrEqual(millis(firstCall.endTime) - 1);
    expect(millis(lookupSpan.endTime)).toBeLessThanOrEqual(millis(secondCall.startTime) + 1);
    expect(navigateSpan.attributes).toMatchObject({
      "gen_ai.tool.name": "navigateToScreen",
      "gen_ai.tool.call.id": navigate.toolCallId,
      "gen_ai.tool.type": "function",
      "tether.tool.location": "browser",
      "tether.tool.status": "pending",
    });
    for (const child of children) expect(child.spanContext().traceId).toBe(run.spanContext().traceId);

    // The join: the record names the trace, the run span names the run.
    const { body: record } = await client.record("kim", `${threadId}-r1`);
    expect(record.traceId).toBe(run.spanContext().traceId);

    // The run the browser's outcome starts is its own trace, pointing back at the run it continues.
    await client.run("kim", "workdesk", {
      threadId,
      runId: `${threadId}-r2`,
      messages: [toolMessage(`${threadId}-t1`, navigate.toolCallId, { status: "succeeded", stage: "displayed" })],
      tools,
      forwardedProps: { tether: { trigger: { kind: "tool-result", parentRunId: `${threadId}-r1`, toolCallIds: [navigate.toolCallId] } } },
    });
    const next = spansOfRun(`${threadId}-r2`);
    expect(next.run.attributes).toMatchObject({ "tether.run.trigger": "tool-result", "tether.run.parent_id": `${threadId}-r1` });
    expect(next.children.map((span) => span.name)).toEqual(["chat playbook:workdesk"]);
    expect((await client.record("kim", `${threadId}-r2`)).body.traceId).toBe(next.run.spanContext().traceId);
  });

  it("trace an approval: the run that asks ends as an interrupt, the run that answers is a resume", async () => {
    const threadId = "otel-approval";
    const asked = await client.run("lee", "workdesk", {
      threadId,
      runId: `${threadId}-r1`,
      messages: [userMessage(`${threadId}-u1`, "close R-1001 as fixed")],
      tools,
    });
    const interrupt = (asked.at(-1)!.data as { outcome: { interrupts: Array<{ id: string; toolCallId: string }> } }).outcome.interrupts[0]!;
    const asking = spansOfRun(`${threadId}-r1`);
    expect(asking.run.attributes).toMatchObject({ "tether.run.outcome": "interrupt", "tether.run.status": "finished" });
    const approval = asking.children.find((span) => span.attributes["tether.tool.status"] === "approval")!;
    expect(approval.attributes).toMatchObject({
      "gen_ai.tool.call.id": interrupt.toolCallId,
      "tether.tool.location": "server",
      "tether.interrupt.id": interrupt.id,
    });

    await client.run("lee", "workdesk", {
      threadId,
      runId: `${threadId}-r2`,
      tools,
      resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }],
      forwardedProps: { tether: { trigger: { kind: "resume", parentRunId: `${threadId}-r1`, interruptIds: [interrupt.id] } } },
    });
    const answering = spansOfRun(`${threadId}-r2`);
    expect(answering.run.attributes).toMatchObject({
      "tether.run.trigger": "resume",
      "tether.run.parent_id": `${threadId}-r1`,
      "tether.run.outcome": "success",
    });
    expect(answering.children.some((span) => span.name === "chat playbook:workdesk")).toBe(true);
  });
});

describe("spans of a run whose model fails", () => {
  const text = (...deltas: string[]): LanguageModelV3StreamPart[] => [
    { type: "text-start", id: "t" },
    ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
  ];
  const reset = new APICallError({
    message: "upstream connection reset",
    url: "https://model.example/v1",
    requestBodyValues: {},
    statusCode: 503,
    isRetryable: true,
  });

  it("mark the chat span and the run span as errors with the error's code", async () => {
    const app = await createScriptedApp([{ parts: text("Let me ", "check"), throwAfter: reset }], { app: { telemetry: { tracerProvider: provider } } });
    const frames = await app.run({ threadId: "otel-broken", runId: "otel-broken-r1", messages: [userMessage("u1", "hello")] });
    expect(frames.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "model_error" });

    const { run, children } = spansOfRun("otel-broken-r1");
    expect(run.status).toEqual({ code: SpanStatusCode.ERROR, message: expect.stringContaining("HTTP 503") });
    expect(run.attributes).toMatchObject({ "error.type": "model_error", "tether.run.status": "error" });
    expect(children).toHaveLength(1);
    expect(children[0]!.name).toBe("chat scripted");
    expect(children[0]!.attributes).toMatchObject({ "gen_ai.provider.name": "tether.scripted", "error.type": "model_error" });
    // The chat span, the operator's, also has what the provider said.
    expect(children[0]!.status).toEqual({ code: SpanStatusCode.ERROR, message: expect.stringContaining("The provider said: upstream connection reset") });
    await app.tether.close();
  });
});
