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
  return (await turnsOf(model, prompt)).flat();
}

/** The replayed parts, grouped by the turn of the event loop each arrived in. */
async function turnsOf(model: ReturnType<typeof replayModel>, prompt: LanguageModelV3Prompt): Promise<LanguageModelV3StreamPart[][]> {
  let turn = 0;
  let ticker = setImmediate(function tick() {
    turn++;
    ticker = setImmediate(tick);
  });
  try {
    const { stream } = await model.doStream({ prompt } as LanguageModelV3CallOptions);
    const turns = new Map<number, LanguageModelV3StreamPart[]>();
    for await (const part of stream as unknown as AsyncIterable<LanguageModelV3StreamPart>) turns.set(turn, [...(turns.get(turn) ?? []), part]);
    return [...turns.values()];
  } finally {
    clearImmediate(ticker);
  }
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

  it("replays parts that arrived in separate turns of the event loop in separate turns, and parts that came together together", async () => {
    const spread = replayModel(createScriptedModel([{ text: "one two three four" }], { chunkDelayMs: 2 }));
    const recorded = await turnsOf(spread, ask);
    const replayed = await turnsOf(spread, ask);
    expect(recorded.length).toBeGreaterThan(3);
    expect(replayed.map((turn) => turn.length)).toEqual(recorded.map((turn) => turn.length));

    const together = replayModel(
      createScriptedModel([
        {
          parts: [
            { type: "text-start", id: "t" },
            { type: "text-delta", id: "t", delta: "Hi" },
            { type: "text-end", id: "t" },
          ],
        },
      ]),
    );
    await turnsOf(together, ask);
    expect((await turnsOf(together, ask)).map((turn) => turn.length)).toEqual([3]);
  });

  it("lets calls of one kind that come before the first answer share its one call to the model", async () => {
    const scripted = createScriptedModel([{ text: "Here." }], { chunkDelayMs: 2 });
    const model = replayModel(scripted);
    const answers = await Promise.all([partsOf(model, ask), partsOf(model, ask), partsOf(model, ask)]);
    expect(scripted.calls).toHaveLength(1);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it("freezes what replays share, so no replay can change another's answer", async () => {
    const model = replayModel(createScriptedModel([{ text: "Here." }]));
    await partsOf(model, ask);
    const finish = (await partsOf(model, ask)).find((part) => part.type === "finish")!;
    expect(Object.isFrozen(finish.usage)).toBe(true);
  });

  it("does not remember a call that failed: the next call of its kind asks the model again", async () => {
    const scripted = createScriptedModel([{ parts: [{ type: "error", error: new Error("overloaded") }] }, { text: "Here." }]);
    const model = replayModel(scripted);

    await expect(partsOf(model, ask)).rejects.toThrow("overloaded");
    expect((await partsOf(model, ask)).some((part) => part.type === "text-delta")).toBe(true);
    expect(scripted.calls).toHaveLength(2);
  });
});
