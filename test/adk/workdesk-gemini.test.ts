import { LLMock } from "@copilotkit/aimock";
import { EventType, buildResumeArray, type BaseEvent, type HttpAgent, type Interrupt } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { callNamed, resultOf, spoken } from "../helpers/run-events.ts";
import { STORY } from "../providers/story-fixtures.ts";
import { startUpstreamTap, type UpstreamTap } from "../providers/upstream-tap.ts";

/**
 * `workdesk-adk` with ADK's own Gemini model (TETHER_ADK_MODEL), on aimock's
 * Gemini wire: the demo as an operator would start it, the model reached
 * through a tap that keeps each request as ADK wrote it (aimock's normalised
 * body drops `parametersJsonSchema`). The words are the story's, as the AI SDK
 * providers play it (test/providers/story-fixtures.ts).
 */
const MODEL = "gemini-2.5-flash";
const STREAM_PATH = `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`;
const tools = [toAgUiTool(navigateToScreen)];
const CLOSED = "R-1042 is closed: the badge reader at Gate 3 is fixed.";
const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
// Gemini ends a turn of function calls with STOP; aimock's default (FUNCTION_CALL) is no Gemini finish reason, and ADK
// reports any finish but STOP as the turn's error.
const ENDS_WITH_CALLS = { finishReason: "stop" };

const mock = new LLMock({ port: 0, auth: { apiKeys: ["test-key"] } });
let tap: UpstreamTap;
let server: DemoServer;

beforeAll(async () => {
  // First match wins: the continuations (the latest result decides) before the new questions.
  mock.addFixture({ match: { model: MODEL, toolResultContains: '"displayed"' }, response: { content: STORY.opened } });
  mock.addFixture({ match: { model: MODEL, toolResultContains: '"closed":true' }, response: { content: CLOSED } });
  mock.addFixture({
    match: { model: MODEL, toolResultContains: '"MNU-3120"' },
    response: { content: STORY.opening, toolCalls: [call("navigateToScreen", STORY.navigateArguments)], ...ENDS_WITH_CALLS },
    chunkSize: STORY.chunkSize,
  });
  mock.addFixture({
    match: { model: MODEL, userMessage: /^open the work request list$/, hasToolResult: false },
    response: { toolCalls: [call("lookupScreens", STORY.lookupArguments)], ...ENDS_WITH_CALLS },
  });
  mock.addFixture({
    match: { model: MODEL, userMessage: /^close R-1042 as fixed$/, hasToolResult: false },
    response: {
      content: "I'll ask you to approve closing R-1042.",
      toolCalls: [call("closeWorkRequest", { requestId: "R-1042", resolution: "fixed" })],
      ...ENDS_WITH_CALLS,
    },
  });
  await mock.start();
  tap = await startUpstreamTap(mock.url);
  server = await startDemoServer({ env: { TETHER_ADK_MODEL: MODEL, GOOGLE_API_KEY: "test-key", GOOGLE_GEMINI_BASE_URL: tap.url } });
});
afterAll(async () => {
  await server?.close();
  await tap?.close();
  await mock.stop();
});

async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}) {
  const events: BaseEvent[] = [];
  let pendingToolCallIds: string[] = [];
  await agent.runAgent(
    { tools, ...parameters },
    {
      onEvent: ({ event }) => void events.push(event),
      onRunFinishedEvent: (params) => {
        if (params.outcome === "success") pendingToolCallIds = params.pendingToolCallIds;
      },
    },
  );
  return { events, pendingToolCallIds };
}

const starts = (events: BaseEvent[]) =>
  events.filter((event) => event.type === EventType.TOOL_CALL_START).map((event) => (event as BaseEvent & { toolCallName: string }).toolCallName);

interface GeminiRequest {
  contents: Array<{
    role: string;
    parts: Array<{ text?: string; functionCall?: { name: string; args: unknown }; functionResponse?: { name: string; response: unknown } }>;
  }>;
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations?: Array<{ name: string; description: string; parameters?: unknown; parametersJsonSchema?: unknown }> }>;
}

/** The Gemini requests of this thread's turns, as ADK sent them. */
function geminiRequests(since: number): Array<{ path: string; body: GeminiRequest }> {
  return tap.exchanges.slice(since).map((exchange) => ({ path: exchange.path, body: JSON.parse(exchange.body) as GeminiRequest }));
}

describe("the Workdesk story on the ADK agent with ADK's Gemini, on aimock's Gemini wire", () => {
  it("looks the screen up, has the page open it once, and answers from the page's report", async () => {
    const since = tap.exchanges.length;
    const agent = server.agent("kim", "adk-gemini-1", "workdesk-adk");
    agent.addMessage({ id: "adk-gemini-1-u1", role: "user", content: STORY.ask });
    const first = await run(agent);
    expect(starts(first.events)).toEqual(["lookupScreens", "navigateToScreen"]);
    const lookup = JSON.parse(resultOf(first.events, callNamed(first.events, "lookupScreens"))!);
    expect(lookup.candidates[0]).toMatchObject({ screenId: "MNU-3120" });
    const navigation = callNamed(first.events, "navigateToScreen");
    expect(first.pendingToolCallIds).toEqual([navigation]);
    expect(
      JSON.parse(
        agent.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : [])).find((call) => call.id === navigation)!.function
          .arguments,
      ),
    ).toEqual(STORY.navigateArguments);
    expect(spoken(first.events)).toBe(STORY.opening);

    agent.addMessage({ id: "adk-gemini-1-t1", role: "tool", toolCallId: navigation, content: JSON.stringify({ status: "succeeded", stage: "displayed" }) });
    const second = await run(agent);
    expect(starts(second.events)).toEqual([]);
    expect(second.pendingToolCallIds).toEqual([]);
    expect(spoken(second.events)).toBe(STORY.opened);

    // Three model calls, each ADK's own streaming call to Gemini, with the key aimock checks (it refuses any other).
    const requests = geminiRequests(since);
    expect(requests.map((request) => request.path)).toEqual(Array(3).fill(STREAM_PATH));
    expect(tap.exchanges.slice(since).map((exchange) => exchange.status)).toEqual([200, 200, 200]);
    // The page's outcome reached the model as the navigation's response, and the navigation was asked for once.
    const last = requests[2]!.body.contents.flatMap((content) => content.parts);
    expect(last.filter((part) => part.functionCall?.name === "navigateToScreen")).toHaveLength(1);
    expect(last.find((part) => part.functionResponse?.name === "navigateToScreen")?.functionResponse?.response).toMatchObject({
      status: "succeeded",
      stage: "displayed",
    });
  });

  it("declares the agent's tools and the page's browser tool on the wire, whole, and tells the model who the user is", async () => {
    const since = tap.exchanges.length;
    const agent = server.agent("kim", "adk-gemini-2", "workdesk-adk");
    agent.addMessage({ id: "adk-gemini-2-u1", role: "user", content: STORY.ask });
    await run(agent);
    const [request] = geminiRequests(since);
    const declared = request!.body.tools!.flatMap((tool) => tool.functionDeclarations ?? []);
    expect(declared.map((declaration) => declaration.name)).toEqual(["lookupScreens", "searchWorkRequests", "closeWorkRequest", "navigateToScreen"]);
    const byName = Object.fromEntries(declared.map((declaration) => [declaration.name, declaration]));
    // ADK's own tools as ADK declares a zod object: Gemini's Schema, with the Tether tools' descriptions.
    expect(byName.lookupScreens!.description).toMatch(/^Finds Workdesk screens the user can open/);
    expect(byName.lookupScreens!.parameters).toMatchObject({ type: "OBJECT", required: ["query"], properties: { query: { type: "STRING" } } });
    expect(byName.closeWorkRequest!.parameters).toMatchObject({ required: ["requestId", "resolution"], properties: { requestId: { pattern: "^R-\\d{4}$" } } });
    // The browser tool as the page declared it (the allow-listed schema), which aimock's normalised body does not keep.
    expect(byName.navigateToScreen!.description).toBe(navigateToScreen.description);
    expect(byName.navigateToScreen!.parametersJsonSchema).toMatchObject({
      type: "object",
      required: ["screenId"],
      properties: { screenId: { type: "string" }, target: { enum: ["content", "new-tab"] } },
    });
    const system = request!.body.systemInstruction!.parts.map((part) => part.text).join("\n");
    expect(system).toContain("The user is Kim Ara, signed in to organisation ORG-01 with roles: requester.");
  });

  it("holds the close for the manager's approval, then closes the request and says so", async () => {
    const since = tap.exchanges.length;
    const agent = server.agent("lee", "adk-gemini-3", "workdesk-adk");
    agent.addMessage({ id: "adk-gemini-3-u1", role: "user", content: "close R-1042 as fixed" });
    const first = await run(agent);
    const [interrupt] = agent.pendingInterrupts as [Interrupt];
    const call = callNamed(first.events, "closeWorkRequest");
    expect(interrupt).toMatchObject({ toolCallId: call, message: 'Close R-1042 "Replace broken badge reader at Gate 3" as "fixed"?' });
    expect(resultOf(first.events, call)).toBeUndefined();
    expect(geminiRequests(since)).toHaveLength(1);
    const second = await run(agent, { resume: buildResumeArray([interrupt], { [interrupt.id]: { status: "resolved", payload: { approved: true } } }) });
    expect(JSON.parse(resultOf(second.events, call)!)).toMatchObject({ closed: true, requestId: "R-1042" });
    expect(spoken(second.events)).toBe(CLOSED);
    const request = await fetch(`${server.url}/api/workdesk/requests/R-1042`, { headers: { Authorization: `Bearer ${server.token("lee")}` } });
    expect((await request.json()).request).toMatchObject({ status: "closed", resolution: "fixed" });
    // Gemini heard the call and its result; ADK's own confirmation exchange stays between ADK and Tether.
    const requests = geminiRequests(since);
    expect(requests).toHaveLength(2);
    const parts = requests[1]!.body.contents.flatMap((content) => content.parts);
    expect(parts.filter((part) => part.functionCall).map((part) => part.functionCall!.name)).toEqual(["closeWorkRequest"]);
    expect(parts.filter((part) => part.functionResponse).map((part) => part.functionResponse!.name)).toEqual(["closeWorkRequest"]);
  });
});
