import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { silentLogger } from "@tether-agent/tether/server";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDemo, type Demo } from "../apps/serve.ts";
import { navigateToScreen } from "../apps/workdesk/agent/index.ts";

/**
 * The demo's `workdesk-upstream`: the Workdesk story served by an agent written
 * with the AI SDK, over AG-UI on a port of its own, with Tether in front. The
 * same two turns as the built-in agent: the upstream looks the screen up (its
 * own tool, within kim's rights), Tether leaves navigateToScreen to the
 * browser, and the answer comes from the outcome the browser reported.
 */
let demo: Demo;
let token: string;
const exporter = new InMemorySpanExporter();
const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

beforeAll(async () => {
  demo = await createDemo({
    env: { TETHER_DATA_DIR: ":memory:" },
    secret: "s",
    logger: silentLogger,
    playbook: { chunkDelayMs: 0 },
    telemetry: { tracerProvider },
  });
  token = demo.identity.issueToken("kim");
});
afterAll(async () => {
  await demo?.close();
  await tracerProvider.shutdown();
});

async function run(threadId: string, runId: string, messages: unknown[]) {
  const response = await demo.app.request("/api/agents/workdesk-upstream/run", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ threadId, runId, messages, tools: [toAgUiTool(navigateToScreen)], context: [], state: {}, forwardedProps: {} }),
  });
  expect(response.status).toBe(200);
  return parseSseFrames(await response.text()).map((frame) => frame.data as { type: string; [key: string]: unknown });
}

describe("the Workdesk story through an upstream agent written with the AI SDK", () => {
  it("looks the screen up upstream, leaves the navigation to the browser, and answers from its outcome", async () => {
    const first = await run("wu-1", "wu-1-r1", [{ id: "u1", role: "user", content: "open the work request list" }]);
    const starts = first.filter((event) => event.type === "TOOL_CALL_START").map((event) => event.toolCallName);
    expect(starts).toEqual(["lookupScreens", "navigateToScreen"]);
    // The upstream's own tool answered upstream, within kim's screens.
    const lookup = first.find((event) => event.type === "TOOL_CALL_RESULT");
    expect(JSON.parse(lookup!.content as string)).toMatchObject({
      orgScope: "ORG-01",
      candidates: expect.arrayContaining([expect.objectContaining({ screenId: expect.any(String) })]),
    });
    const finished = first.at(-1)!;
    expect(finished).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success", pendingToolCallIds: [expect.any(String)] } });
    const navigation = (finished.outcome as { pendingToolCallIds: string[] }).pendingToolCallIds[0]!;

    // The browser opened it and reports so: the upstream speaks from that.
    const outcome = { status: "succeeded", stage: "displayed", message: "Work request list is open." };
    const second = await run("wu-1", "wu-1-r2", [{ id: "t1", role: "tool", toolCallId: navigation, content: JSON.stringify(outcome) }]);
    const said = second
      .filter((event) => event.type === "TEXT_MESSAGE_CONTENT")
      .map((event) => event.delta)
      .join("");
    expect(said).toMatch(/open/i);
    expect(second.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
  });

  it("records the upstream's step as one model call with both its calls, and traces it with a span per call", async () => {
    const first = await run("wu-2", "wu-2-r1", [{ id: "u1", role: "user", content: "open the work request list" }]);
    const callIds = first.filter((event) => event.type === "TOOL_CALL_START").map((event) => event.toolCallId as string);
    const response = await demo.app.request("/api/runs/wu-2-r1/record", { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const record = (await response.json()) as { modelCalls: Array<{ model: unknown; text: unknown; toolCalls: unknown[] }> };
    expect(record.modelCalls).toHaveLength(1);
    expect(record.modelCalls[0]!.model).toMatchObject({ provider: "ag-ui" });
    // Both calls, in the order they came: the upstream's own with its result, the browser's pending.
    expect(record.modelCalls[0]!.toolCalls).toEqual([
      expect.objectContaining({ toolCallId: callIds[0], toolName: "lookupScreens", location: "upstream", status: "result", result: expect.anything() }),
      expect.objectContaining({ toolCallId: callIds[1], toolName: "navigateToScreen", location: "browser", status: "pending" }),
    ]);
    expect(JSON.stringify(record.modelCalls[0]!.toolCalls[1])).toContain("screenId");

    await expect.poll(() => exporter.getFinishedSpans().some((span) => span.attributes["tether.run.id"] === "wu-2-r1")).toBe(true);
    const spans = exporter.getFinishedSpans();
    const runSpan = spans.find((span) => span.attributes["tether.run.id"] === "wu-2-r1")!;
    const children = spans.filter((span) => span.parentSpanContext?.spanId === runSpan.spanContext().spanId).map((span) => span.name);
    expect(children).toEqual(expect.arrayContaining([expect.stringMatching(/^chat /), "execute_tool lookupScreens", "execute_tool navigateToScreen"]));
  });

  it("refuses anyone but Tether at the upstream's own port", async () => {
    // Where it listens, as the agent's capabilities name it.
    const capabilities = await demo.app.request("/api/agents/workdesk-upstream/capabilities", { headers: { authorization: `Bearer ${token}` } });
    const upstreamUrl = ((await capabilities.json()) as { custom: { model: { provider: string; modelId: string } } }).custom.model.modelId;
    expect(upstreamUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await fetch(upstreamUrl!, { method: "POST", headers: { "content-type": "application/json", "x-workdesk-user": "admin" }, body: "{}" });
    expect(response.status).toBe(401);
  });
});
