import type { LlmRequest } from "@google/adk";
import { describe, expect, it } from "vitest";
import type { AdkContent } from "./adk-request.ts";
import { readAdkConversation } from "./read-adk-conversation.ts";

function request(contents: AdkContent[], config: LlmRequest["config"] = {}): LlmRequest {
  return { contents, config, liveConnectConfig: {}, toolsDict: {} };
}

const user = (text: string): AdkContent => ({ role: "user", parts: [{ text }] });
const call = (name: string, args: Record<string, unknown>, id?: string) => ({ functionCall: { name, args, ...(id ? { id } : {}) } });
const answer = (name: string, response: Record<string, unknown>, id?: string) => ({ functionResponse: { name, response, ...(id ? { id } : {}) } });

describe("readAdkConversation", () => {
  it("reads the latest user text, the system text and the functions offered", () => {
    const conversation = readAdkConversation(
      request([user("hello"), { role: "model", parts: [{ text: "Hi." }] }, user("open the work request list")], {
        systemInstruction: "You are Workdesk's assistant.",
        tools: [
          {
            functionDeclarations: [
              {
                name: "navigateToScreen",
                description: "Open a screen.",
                parametersJsonSchema: { type: "object", properties: { screenId: { type: "string" } } },
              },
              { name: "lookupScreens", description: "Find screens." },
            ],
          },
        ],
      }),
    );
    expect(conversation).toEqual({
      userText: "open the work request list",
      userTexts: ["hello", "open the work request list"],
      results: [],
      sinceUser: [],
      all: [],
      system: "You are Workdesk's assistant.",
      tools: ["navigateToScreen", "lookupScreens"],
      offered: [
        { name: "navigateToScreen", description: "Open a screen.", inputSchema: { type: "object", properties: { screenId: { type: "string" } } } },
        { name: "lookupScreens", description: "Find screens.", inputSchema: undefined },
      ],
      turnsSinceUser: 0,
    });
  });

  it("reads a system instruction given as a Content or as a list of parts", () => {
    expect(readAdkConversation(request([user("hi")], { systemInstruction: { role: "system", parts: [{ text: "One." }, { text: "Two." }] } })).system).toBe(
      "One.\nTwo.",
    );
    expect(readAdkConversation(request([user("hi")], { systemInstruction: ["One.", { text: "Two." }] })).system).toBe("One.\nTwo.");
    expect(readAdkConversation(request([user("hi")], { systemInstruction: { text: "Alone." } })).system).toBe("Alone.");
  });

  it("pairs responses whose ids ADK stripped with their calls by name, whatever order they came back in", () => {
    const conversation = readAdkConversation(
      request([
        user("go"),
        { role: "model", parts: [call("navigateToScreen", { screenId: "MNU-3120" }), call("getWeather", { city: "Lyon" })] },
        // ADK merges a server tool's response before a browser's that arrived later.
        { role: "user", parts: [answer("getWeather", { result: "sunny" }), answer("navigateToScreen", { status: "succeeded", stage: "displayed" })] },
      ]),
    );
    expect(conversation.results).toEqual([
      { toolCallId: "", toolName: "getWeather", input: { city: "Lyon" }, output: "sunny", isError: false },
      { toolCallId: "", toolName: "navigateToScreen", input: { screenId: "MNU-3120" }, output: { status: "succeeded", stage: "displayed" }, isError: false },
    ]);
    expect(conversation.turnsSinceUser).toBe(1);
  });

  it("pairs same-name calls by id when the provider's ids are there, and in order when not", () => {
    const byId = readAdkConversation(
      request([
        user("two cities"),
        { role: "model", parts: [call("getWeather", { city: "Lyon" }, "call_a"), call("getWeather", { city: "Oslo" }, "call_b")] },
        { role: "user", parts: [answer("getWeather", { sky: "snow" }, "call_b"), answer("getWeather", { sky: "sun" }, "call_a")] },
      ]),
    );
    expect(byId.results.map((result) => [result.toolCallId, result.input, result.output])).toEqual([
      ["call_b", { city: "Oslo" }, { sky: "snow" }],
      ["call_a", { city: "Lyon" }, { sky: "sun" }],
    ]);
    const inOrder = readAdkConversation(
      request([
        user("two cities"),
        { role: "model", parts: [call("getWeather", { city: "Lyon" }), call("getWeather", { city: "Oslo" })] },
        { role: "user", parts: [answer("getWeather", { sky: "sun" }), answer("getWeather", { sky: "snow" })] },
      ]),
    );
    expect(inOrder.results.map((result) => [result.input, result.output])).toEqual([
      [{ city: "Lyon" }, { sky: "sun" }],
      [{ city: "Oslo" }, { sky: "snow" }],
    ]);
  });

  it("unwraps what ADK wrapped: errors, primitives, arrays, and JSON text", () => {
    const conversation = readAdkConversation(
      request([
        user("go"),
        { role: "model", parts: [call("boom", {}), call("count", {}), call("list", {}), call("lookup", {})] },
        {
          role: "user",
          parts: [
            answer("boom", { error: "Error in tool 'boom': disk full" }),
            answer("count", { result: 3 }),
            answer("list", { results: [1, 2] }),
            answer("lookup", { result: '{"screenId":"MNU-3120"}' }),
          ],
        },
      ]),
    );
    expect(conversation.results.map(({ output, isError }) => ({ output, isError }))).toEqual([
      { output: "Error in tool 'boom': disk full", isError: true },
      { output: 3, isError: false },
      { output: [1, 2], isError: false },
      { output: { screenId: "MNU-3120" }, isError: false },
    ]);
  });

  it("keeps results since the user and in all, and counts the model's turns since the user once each", () => {
    const conversation = readAdkConversation(
      request([
        user("first"),
        { role: "model", parts: [call("lookupScreens", { query: "a" })] },
        { role: "user", parts: [answer("lookupScreens", { screens: ["A"] })] },
        { role: "model", parts: [{ text: "Found A." }] },
        user("second"),
        { role: "model", parts: [call("lookupScreens", { query: "b" })] },
        { role: "user", parts: [answer("lookupScreens", { screens: ["B"] })] },
        // A streamed Gemini turn as ADK stores it: its text, then its calls.
        { role: "model", parts: [{ text: "Opening B." }] },
        { role: "model", parts: [call("navigateToScreen", { screenId: "B" })] },
      ]),
    );
    expect(conversation.userText).toBe("second");
    expect(conversation.results).toEqual([]);
    expect(conversation.sinceUser.map((result) => result.output)).toEqual([{ screens: ["B"] }]);
    expect(conversation.all.map((result) => result.output)).toEqual([{ screens: ["A"] }, { screens: ["B"] }]);
    expect(conversation.turnsSinceUser).toBe(2);
  });

  it("takes a click on a generated surface (a log_a2ui_event call) as the person's turn", () => {
    const conversation = readAdkConversation(
      request([
        user("show R-1042 as a card"),
        { role: "model", parts: [{ text: "Here it is." }] },
        { role: "model", parts: [call("log_a2ui_event", { name: "close" })] },
        { role: "user", parts: [answer("log_a2ui_event", { ok: true })] },
      ]),
    );
    expect(conversation.turnsSinceUser).toBe(0);
    expect(conversation.results).toEqual([{ toolCallId: "", toolName: "log_a2ui_event", input: { name: "close" }, output: { ok: true }, isError: false }]);
  });
});
