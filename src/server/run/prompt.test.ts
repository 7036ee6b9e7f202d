import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { activityMessage, assistantMessage, toolCall, toolMessage, userMessage } from "../../../test/fixtures/messages.ts";
import { z } from "zod";
import { createArgumentChecker } from "../../protocol/index.ts";
import { compileAgentState } from "../state/index.ts";
import { STATE_HEADING, STATE_PROMPT_LIMIT, statePrompt, toModelPrompt } from "./prompt.ts";

const outcome = { status: "succeeded", stage: "displayed" };

const noResult = (toolName: string) =>
  JSON.stringify({
    status: "unknown",
    reason: "no_result_reported",
    message: `No result was reported for ${toolName} before the conversation moved on; it may or may not have happened.`,
  });

/** Every tool call id in the prompt, and how many results each got. */
function resultsPerCall(prompt: LanguageModelV3Prompt): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of prompt) {
    if (message.role === "assistant") {
      for (const part of message.content) if (part.type === "tool-call") counts.set(part.toolCallId, 0);
    }
    if (message.role === "tool") {
      for (const part of message.content) if (part.type === "tool-result") counts.set(part.toolCallId, (counts.get(part.toolCallId) ?? 0) + 1);
    }
  }
  return counts;
}

describe("toModelPrompt", () => {
  it("puts the instructions and the request's context into one system message first", () => {
    const prompt = toModelPrompt(
      "You help people use Workdesk.",
      [
        { description: "Current screen", value: "MNU-1000 (home)" },
        { description: "Panel mode", value: "side panel" },
      ],
      [userMessage("m1", "hi")],
    );

    expect(prompt).toEqual([
      { role: "system", content: "You help people use Workdesk.\n\nCurrent screen: MNU-1000 (home)\n\nPanel mode: side panel" },
      { role: "user", content: [{ type: "text", text: "hi" }] },
    ]);
  });

  it("sends no system message when there are neither instructions nor context", () => {
    expect(toModelPrompt("", [], [userMessage("m1", "hi")])).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
  });

  it("turns assistant tool calls into tool-call parts with parsed input", () => {
    const prompt = toModelPrompt(
      "",
      [],
      [
        userMessage("m1", "open the work request list"),
        assistantMessage("m2", "Opening it.", [toolCall("call_1", "navigate", { screenId: "MNU-3120" })]),
        toolMessage("m3", "call_1", outcome),
      ],
    );

    expect(prompt[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Opening it." },
        { type: "tool-call", toolCallId: "call_1", toolName: "navigate", input: { screenId: "MNU-3120" } },
      ],
    });
  });

  it("passes empty arguments as an empty object and malformed ones as invalidArguments", () => {
    const prompt = toModelPrompt(
      "",
      [],
      [
        assistantMessage("m1", undefined, [toolCall("call_1", "listScreens", ""), toolCall("call_2", "navigate", '{"screenId":')]),
        toolMessage("m2", "call_1", "[]"),
        toolMessage("m3", "call_2", { error: { code: "invalid_arguments", message: "not JSON" } }),
      ],
    );

    expect(prompt[0]).toEqual({
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "call_1", toolName: "listScreens", input: {} },
        { type: "tool-call", toolCallId: "call_2", toolName: "navigate", input: { invalidArguments: '{"screenId":' } },
      ],
    });
  });

  it("turns tool messages into tool-result parts of one tool message", () => {
    const prompt = toModelPrompt(
      "",
      [],
      [
        assistantMessage("m1", "", [toolCall("call_1", "findScreen", { query: "work requests" }), toolCall("call_2", "navigate", { screenId: "MNU-3120" })]),
        toolMessage("m2", "call_1", { screenId: "MNU-3120" }),
        toolMessage("m3", "call_2", outcome),
      ],
    );

    expect(prompt[1]).toEqual({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "call_1", toolName: "findScreen", output: { type: "json", value: { screenId: "MNU-3120" } } },
        { type: "tool-result", toolCallId: "call_2", toolName: "navigate", output: { type: "json", value: outcome } },
      ],
    });
    expect(prompt).toHaveLength(2);
  });

  it("marks a result shaped { error: {...} } as error-json", () => {
    const failure = { error: { code: "tool_failed", message: "The screen catalog is unavailable." } };
    const prompt = toModelPrompt("", [], [assistantMessage("m1", "", [toolCall("call_1", "findScreen")]), toolMessage("m2", "call_1", failure)]);

    expect(prompt[1]).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "call_1", toolName: "findScreen", output: { type: "error-json", value: failure } }],
    });
  });

  it("passes a result that is not JSON as text", () => {
    const prompt = toModelPrompt("", [], [assistantMessage("m1", "", [toolCall("call_1", "findScreen")]), toolMessage("m2", "call_1", "three screens match")]);

    expect(prompt[1]).toMatchObject({ content: [{ output: { type: "text", value: "three screens match" } }] });
  });

  it("gives a call without a result a synthetic no_result_reported result before the next message", () => {
    const prompt = toModelPrompt(
      "",
      [],
      [
        userMessage("m1", "open the work request list"),
        assistantMessage("m2", "", [toolCall("call_1", "navigate", { screenId: "MNU-3120" })]),
        userMessage("m3", "never mind"),
      ],
    );

    expect(prompt).toEqual([
      { role: "user", content: [{ type: "text", text: "open the work request list" }] },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "navigate", input: { screenId: "MNU-3120" } }] },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_1", toolName: "navigate", output: { type: "text", value: noResult("navigate") } }],
      },
      { role: "user", content: [{ type: "text", text: "never mind" }] },
    ]);
  });

  it("gives a call still open at the end of the history a synthetic result", () => {
    const prompt = toModelPrompt("", [], [assistantMessage("m1", "", [toolCall("call_1", "navigate", { screenId: "MNU-3120" })])]);

    expect(prompt.at(-1)).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "call_1", toolName: "navigate", output: { type: "text", value: noResult("navigate") } }],
    });
  });

  it("gives every call exactly one result, dropping answers to calls that are not open", () => {
    const prompt = toModelPrompt(
      "",
      [],
      [
        assistantMessage("m1", "", [toolCall("call_1", "findScreen"), toolCall("call_2", "navigate", { screenId: "MNU-3120" })]),
        toolMessage("m2", "call_2", outcome),
        toolMessage("m3", "call_2", outcome),
        toolMessage("m4", "call_404", outcome),
        userMessage("m5", "well?"),
      ],
    );

    expect(Object.fromEntries(resultsPerCall(prompt))).toEqual({ call_1: 1, call_2: 1 });
  });

  it("skips activity messages", () => {
    const prompt = toModelPrompt("", [], [userMessage("m1", "show recipes"), activityMessage("a1"), assistantMessage("m2", "Here they are.")]);

    expect(prompt).toEqual([
      { role: "user", content: [{ type: "text", text: "show recipes" }] },
      { role: "assistant", content: [{ type: "text", text: "Here they are." }] },
    ]);
  });

  // The stored thread keeps a step's surfaces after its results, and a browser call's result
  // may come in a later run, after them: the call still gets its real result.
  it("keeps the real result of a call when an activity message sits between the call and its result", () => {
    const prompt = toModelPrompt(
      "",
      [],
      [assistantMessage("m1", "", [toolCall("call_1", "showRecipeCards", { recipeIds: ["r1"] })]), activityMessage("a1"), toolMessage("m2", "call_1", outcome)],
    );

    expect(prompt.at(-1)).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "call_1", toolName: "showRecipeCards", output: { type: "json", value: outcome } }],
    });
  });

  it("keeps system and developer messages of the history as system messages", () => {
    const prompt = toModelPrompt("Be brief.", [], [{ id: "s1", role: "developer", content: "Answer in English." }, userMessage("m1", "hi")]);

    expect(prompt.map((message) => message.role)).toEqual(["system", "system", "user"]);
    expect(prompt[1]).toEqual({ role: "system", content: "Answer in English." });
  });

  it("flattens multi-part user content into text, naming attachments it leaves out", () => {
    const prompt = toModelPrompt(
      "",
      [],
      [
        {
          id: "m1",
          role: "user",
          content: [
            { type: "text", text: "what is on this screenshot?" },
            { type: "image", source: { type: "url", value: "https://example.test/screen.png" } },
          ],
        },
      ],
    );

    expect(prompt).toEqual([{ role: "user", content: [{ type: "text", text: "what is on this screenshot?\n[image attachment omitted]" }] }]);
  });
});

describe("statePrompt", () => {
  const declare = (prompt?: false | ((state: { title: string }) => string)) =>
    compileAgentState(
      "recipes",
      { schema: z.object({ title: z.string() }), initial: { title: "" }, ...(prompt === undefined ? {} : { prompt }) },
      createArgumentChecker(),
    );

  it("shows the state as JSON under its heading, as the system message's last block, after the context", () => {
    const prompt = toModelPrompt(
      "Cook.",
      [{ description: "Diet", value: "vegetarian" }],
      [userMessage("m1", "hi")],
      statePrompt({ title: "Leek soup" }, declare()),
    );
    expect(prompt[0]).toEqual({ role: "system", content: `Cook.\n\nDiet: vegetarian\n\n${STATE_HEADING}\n{"title":"Leek soup"}` });
  });

  it("leaves it out with prompt: false, and for an agent that declares no state and has none", () => {
    expect(statePrompt({ title: "Soup" }, declare(false))).toBeUndefined();
    expect(statePrompt({}, undefined)).toBeUndefined();
    expect(statePrompt({ units: "metric" }, undefined)).toBe(`${STATE_HEADING}\n{"units":"metric"}`);
    expect(statePrompt({ title: "" }, declare())).toBe(`${STATE_HEADING}\n{"title":""}`);
  });

  it("takes the agent's own words for it", () => {
    expect(
      statePrompt(
        { title: "Soup" },
        declare((state) => `The recipe is called ${state.title}.`),
      ),
    ).toBe("The recipe is called Soup.");
  });

  it("cuts a huge state at its limit, and says so", () => {
    const state = { notes: "n".repeat(STATE_PROMPT_LIMIT) };
    const block = statePrompt(state, undefined)!;
    const whole = `${STATE_HEADING}\n${JSON.stringify(state)}`.length;
    expect(block).toBe(
      `${STATE_HEADING}\n${JSON.stringify(state)}`.slice(0, STATE_PROMPT_LIMIT) +
        `\n[The state's block is ${whole} characters; only its first ${STATE_PROMPT_LIMIT} are shown.]`,
    );
  });
});
