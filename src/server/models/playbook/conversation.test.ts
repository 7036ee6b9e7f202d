import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { readConversation } from "./conversation.ts";

const call = (toolCallId: string, toolName: string, input: unknown) => ({ type: "tool-call" as const, toolCallId, toolName, input });
const result = (toolCallId: string, toolName: string, value: string) => ({
  type: "tool-result" as const,
  toolCallId,
  toolName,
  output: { type: "text" as const, value },
});

describe("readConversation", () => {
  it("takes a click on a generated surface as the person's turn, with the action as the latest result", () => {
    const prompt: LanguageModelV3Prompt = [
      { role: "system", content: "You help." },
      { role: "user", content: [{ type: "text", text: "show R-1042 as a card" }] },
      { role: "assistant", content: [call("c1", "searchWorkRequests", { query: "R-1042" })] },
      { role: "tool", content: [result("c1", "searchWorkRequests", "{}")] },
      { role: "assistant", content: [call("c2", "render_a2ui", { surfaceId: "s" })] },
      { role: "tool", content: [result("c2", "render_a2ui", '{"rendered":true}')] },
      { role: "assistant", content: [{ type: "text", text: "Here it is." }] },
      { role: "assistant", content: [call("a1", "log_a2ui_event", { name: "open_detail", context: { requestId: "R-1042" } })] },
      { role: "tool", content: [result("a1", "log_a2ui_event", "The person clicked open_detail.")] },
    ];
    const conversation = readConversation(prompt, []);
    expect(conversation.turnsSinceUser).toBe(0);
    expect(conversation.results).toEqual([
      {
        toolCallId: "a1",
        toolName: "log_a2ui_event",
        input: { name: "open_detail", context: { requestId: "R-1042" } },
        output: "The person clicked open_detail.",
        isError: false,
      },
    ]);
    expect(conversation.sinceUser.map((entry) => entry.toolName)).toEqual(["log_a2ui_event"]);
    expect(conversation.all.map((entry) => entry.toolName)).toEqual(["searchWorkRequests", "render_a2ui", "log_a2ui_event"]);
    expect(conversation.userText).toBe("show R-1042 as a card");
  });
});

describe("readConversation's memory of the person's words", () => {
  it("keeps every user message, oldest first, so a playbook can answer from earlier turns", () => {
    const prompt: LanguageModelV3Prompt = [
      { role: "system", content: "You help." },
      { role: "user", content: [{ type: "text", text: "my name is Alex" }] },
      { role: "assistant", content: [{ type: "text", text: "Hello Alex." }] },
      { role: "user", content: [{ type: "text", text: "what is the capital of France?" }] },
      { role: "assistant", content: [{ type: "text", text: "Paris." }] },
      { role: "user", content: [{ type: "text", text: "what is my name?" }] },
    ];
    const conversation = readConversation(prompt, []);
    expect(conversation.userTexts).toEqual(["my name is Alex", "what is the capital of France?", "what is my name?"]);
    expect(conversation.userText).toBe("what is my name?");
  });
});
