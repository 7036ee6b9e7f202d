import type { LanguageModelV3CallOptions, LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createScriptedModel } from "@tether-agent/tether/testing";
import { replayModel } from "../bench/story/replay-model.ts";

const ask: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "open the work request list" }] }];
const lookedUp: LanguageModelV3Prompt = [
  ...ask,
  { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "lookupScreens", input: {} }] },
  { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "lookupScreens", output: { type: "json", value: [] } }] },
];

async function partsOf(model: ReturnType<typeof replayModel>, prompt: LanguageModelV3Prompt): Promise<LanguageModelV3StreamPart[]> {
  const { stream } = await model.doStream({ prompt } as LanguageModelV3CallOptions);
  const parts: LanguageModelV3StreamPart[] = [];
  for await (const part of stream as unknown as AsyncIterable<LanguageModelV3StreamPart>) parts.push(part);
  return parts;
}

describe("bench/story's replay model", () => {
  it("asks the model once per kind of call and replays copies of its parts to every later call of that kind", async () => {
    const scripted = createScriptedModel([{ toolCalls: [{ toolName: "lookupScreens", input: { query: "work request list" } }] }, { text: "Opening it." }]);
    const model = replayModel(scripted);

    const first = await partsOf(model, ask);
    const again = await partsOf(model, ask);
    const afterLookup = await partsOf(model, lookedUp);
    const afterLookupAgain = await partsOf(model, lookedUp);

    expect(scripted.calls).toHaveLength(2);
    expect(first.some((part) => part.type === "tool-call" && part.toolName === "lookupScreens")).toBe(true);
    expect(again).toEqual(first);
    expect(again[0]).not.toBe(first[0]);
    expect(
      afterLookup
        .filter((part) => part.type === "text-delta")
        .map((part) => (part as { delta: string }).delta)
        .join(""),
    ).toBe("Opening it.");
    expect(afterLookupAgain).toEqual(afterLookup);
  });

  it("does not remember a call that failed: the next call of its kind asks the model again", async () => {
    const scripted = createScriptedModel([{ parts: [{ type: "error", error: new Error("overloaded") }] }, { text: "Here." }]);
    const model = replayModel(scripted);

    await expect(partsOf(model, ask)).rejects.toThrow("overloaded");
    expect((await partsOf(model, ask)).some((part) => part.type === "text-delta")).toBe(true);
    expect(scripted.calls).toHaveLength(2);
  });
});
