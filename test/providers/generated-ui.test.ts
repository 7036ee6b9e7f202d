import {
  EventType,
  HttpAgent,
  verifyEvents,
  type ActivitySnapshotEvent,
  type TextMessageContentEvent,
  type ToolCallResultEvent,
  type ToolCallStartEvent,
} from "@ag-ui/client";
import { LLMock, type Fixture } from "@copilotkit/aimock";
import { from, lastValueFrom, toArray } from "rxjs";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, silentLogger, type TetherUser } from "@tether-agent/tether/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listening } from "@tether-agent/tether/node";
import { PROVIDER_WIRES, type ProviderWire } from "./provider-wires.ts";
import { toolCall } from "./story-fixtures.ts";
import { ofType, parseResult, runAgent } from "./tether-stack.ts";
import { startUpstreamTap, type UpstreamTap } from "./upstream-tap.ts";
import { R1042_BROKEN_CARD, R1042_CARD } from "../fixtures/surfaces.ts";

/**
 * Generated UI over each provider's wire: the model's first surface is
 * broken, Tether tells it why in the tool result, and the model's second
 * attempt (which aimock only serves to a request carrying those errors) is
 * the one the browser sees. The error lines are read from the request body
 * the provider SDK really wrote (the tap in front of aimock).
 */

const ASK = "Show R-1042 as a card.";
const DONE = "Here is R-1042 as a card.";

const CARD = R1042_CARD;
const BROKEN = R1042_BROKEN_CARD;

/** R-1042's missing child as the validator words it, the line the model must read. */
const MISSING_CHILD_LINE = "[missing_child] components[1].children[1]: 'ghost' is not the id of any component";

/**
 * The model's three turns. First match wins, and aimock's tool-result rules
 * look at the last message only (for Anthropic and Gemini, the tool result
 * it normalises from the wire), so the corrected surface is served only to a
 * request whose last message is a tool result naming the missing child.
 */
function surfaceFixtures(wire: ProviderWire) {
  const model = wire.modelId;
  return {
    broken: { match: { model, userMessage: ASK, hasToolResult: false }, response: { toolCalls: [toolCall(wire, "render_a2ui", BROKEN, "_1")] } },
    corrected: { match: { model, toolResultContains: "[missing_child]" }, response: { toolCalls: [toolCall(wire, "render_a2ui", CARD, "_2")] } },
    words: { match: { model, toolResultContains: "is on the person's screen" }, response: { content: DONE } },
  } satisfies Record<string, Fixture>;
}

/** The last tool result in one provider request body, in each wire's own format: the call it answers and its text. */
function lastToolResult(wire: ProviderWire, body: string): { toolCallId?: string; text: string } | undefined {
  const request = JSON.parse(body);
  switch (wire.name) {
    case "anthropic": {
      const parts = (request.messages.at(-1)?.content ?? []) as Array<{ type: string; tool_use_id?: string; content?: string | Array<{ text?: string }> }>;
      const result = Array.isArray(parts) ? parts.findLast((part) => part.type === "tool_result") : undefined;
      if (!result) return undefined;
      return {
        toolCallId: result.tool_use_id,
        text: typeof result.content === "string" ? result.content : (result.content ?? []).map((part) => part.text ?? "").join(""),
      };
    }
    case "google": {
      const parts = (request.contents.at(-1)?.parts ?? []) as Array<{ functionResponse?: { id?: string; response?: { content?: unknown } } }>;
      const response = parts.findLast((part) => part.functionResponse)?.functionResponse;
      if (!response) return undefined;
      const content = response.response?.content;
      return { toolCallId: response.id, text: typeof content === "string" ? content : JSON.stringify(content) };
    }
    default: {
      const message = request.messages.at(-1) as { role: string; tool_call_id?: string; content: string } | undefined;
      return message?.role === "tool" ? { toolCallId: message.tool_call_id, text: message.content } : undefined;
    }
  }
}

type SurfaceSnapshot = ActivitySnapshotEvent & { content: Record<string, unknown> };

describe.each(PROVIDER_WIRES)("a generated surface over $name", (wire) => {
  const mock = new LLMock({ port: 0 });
  let tap: UpstreamTap;
  let server: Listening;
  let close: () => Promise<void>;
  const fixtures = surfaceFixtures(wire);
  beforeAll(async () => {
    // Added out of turn order: which one answers is decided by the request, not by the order of the calls.
    mock.addFixtures([fixtures.corrected, fixtures.words, fixtures.broken]);
    await mock.start();
    tap = await startUpstreamTap(mock.url);
    const user: TetherUser = { id: "kim" };
    const tether = await createTetherApp({
      agents: [defineAgent({ id: "surfaces", model: await wire.model(tap.url), generatedUi: true })],
      authenticate: (request) => (request.headers.get("x-user") === user.id ? user : undefined),
      store: createMemoryRunStore(),
      logger: silentLogger,
    });
    server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
    close = async () => {
      await server.close();
      await tether.close();
    };
  });
  afterAll(async () => {
    await close();
    await tap.close();
    await mock.stop();
  });

  it("feeds the validation errors back over the wire, and shows only the corrected surface, building → retrying → operations at one position", async () => {
    const threadId = `genui-${wire.name}`;
    const agent = new HttpAgent({ url: `${server.url}/api/agents/surfaces/run`, headers: { "x-user": "kim" }, threadId });
    agent.addMessage({ id: `${threadId}-u1`, role: "user", content: ASK });
    const run = await runAgent(agent, { tools: [] });
    expect(run.failed).toBeUndefined();
    expect(run.runError).toBeUndefined();
    expect(run.finished!.outcome).toEqual({ type: "success" });

    // The whole stream is a valid AG-UI stream by the client's own rules.
    await expect(lastValueFrom(from(run.events).pipe(verifyEvents(), toArray()))).resolves.toHaveLength(run.events.length);

    // Three model calls: the broken surface, the corrected one, the words.
    const calls = tap.exchanges.filter((exchange) => wire.streamPath.test(exchange.path));
    expect(calls.map((call) => call.status)).toEqual([200, 200, 200]);
    await Promise.all(calls.map((call) => call.ended));

    // Tether answered the broken call with the errors, and the provider SDK sent them upstream verbatim.
    const [first, second] = ofType<ToolCallStartEvent>(run, EventType.TOOL_CALL_START);
    expect([first?.toolCallName, second?.toolCallName]).toEqual(["render_a2ui", "render_a2ui"]);
    // The provider's own ids where the wire carries them; Gemini's are the SDK's.
    const providerId = wire.toolCallId("render_a2ui");
    if (providerId) expect([first!.toolCallId, second!.toolCallId]).toEqual([`${providerId}_1`, `${providerId}_2`]);
    const errorResult = ofType<ToolCallResultEvent>(run, EventType.TOOL_CALL_RESULT).find((event) => event.toolCallId === first!.toolCallId)!;
    const errorText = errorResult.content as string;
    expect(errorText.split("\n").slice(0, 2)).toEqual(["A2UI validation failed", MISSING_CHILD_LINE]);
    const upstream = lastToolResult(wire, calls[1]!.body);
    expect(upstream).toEqual({ toolCallId: first!.toolCallId, text: errorText });
    expect(upstream!.text.split("\n").slice(0, 2)).toEqual(["A2UI validation failed", MISSING_CHILD_LINE]);
    // The first call's request ended with the ask, not a tool result.
    expect(lastToolResult(wire, calls[0]!.body)).toBeUndefined();
    // aimock served the corrected surface because of that tool result: each call was answered by the fixture meant for it.
    const served = mock.getRequests().map((entry) => entry.response.fixture?.match);
    expect(served).toEqual([fixtures.broken.match, fixtures.corrected.match, fixtures.words.match]);

    // One activity position: building, retrying with the errors, then the operations of the corrected surface.
    const lifecycle = ofType<SurfaceSnapshot>(run, EventType.ACTIVITY_SNAPSHOT).filter((event) => event.activityType === "a2ui-surface");
    expect(lifecycle.map((snapshot) => snapshot.content.status ?? (snapshot.content.a2ui_operations ? "operations" : "?"))).toEqual([
      "building",
      "retrying",
      "operations",
    ]);
    expect(new Set(lifecycle.map((snapshot) => snapshot.messageId))).toEqual(new Set([`a2ui-surface-${first!.toolCallId}`]));
    expect(lifecycle.every((snapshot) => snapshot.replace === true)).toBe(true);
    expect(lifecycle[1]!.content).toMatchObject({
      status: "retrying",
      attempt: 2,
      maxAttempts: 3,
      errors: expect.arrayContaining([expect.objectContaining({ code: "missing_child" })]),
    });

    // The operations are the corrected surface's, never the broken one's.
    const operations = lifecycle[2]!.content.a2ui_operations as Array<{ updateComponents?: { components: unknown[] } }>;
    expect(operations.find((operation) => operation.updateComponents)?.updateComponents?.components).toEqual(CARD.components);
    expect(JSON.stringify(operations)).not.toContain("ghost");
    const secondResult = ofType<ToolCallResultEvent>(run, EventType.TOOL_CALL_RESULT).find((event) => event.toolCallId === second!.toolCallId)!;
    expect(parseResult(secondResult)).toMatchObject({ rendered: true, surfaceId: CARD.surfaceId, attempt: 2 });

    // And then the model's words.
    const text = ofType<TextMessageContentEvent>(run, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta);
    expect(text.join("")).toBe(DONE);
  });
});
