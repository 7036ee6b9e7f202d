import type { BaseEvent } from "@ag-ui/core";
import { FunctionTool, type LlmResponse } from "@google/adk";
import { createScriptedLlm, type ScriptedLlmStep } from "@tether-agent/tether/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { userMessage } from "../fixtures/messages.ts";
import { finished, resultOf } from "../helpers/run-events.ts";
import { createAdkApp, interruptsOf } from "./adk-app.ts";
import { approve, ask, assistantAgent, deleteFileTool, weatherTool } from "./fixtures.ts";
import { callsIn, callsWithResponses, ofType, responsesIn } from "./model-requests.ts";

/**
 * Call ids from an ADK agent: one call, one id, one execution, and every result on the call it
 * answers, whatever the provider does with its ids and however long each tool takes.
 */

/** `get_weather`: sunny in Paris, snow elsewhere; `ran` lists each city it was asked about. */
const parisWeather = (ran: string[]) => weatherTool({ onRun: (city) => ran.push(city), forecast: (city) => (city === "Paris" ? "sunny" : "snow") });

/** A streamed turn that shows its call in a partial response, then again in the final one, as progressive streaming does. */
function callShownTwice(name: string, args: Record<string, unknown>, id?: string): LlmResponse[] {
  const call = { functionCall: { name, args, ...(id ? { id } : {}) } };
  return [
    { content: { role: "model", parts: [{ text: "One moment. " }] }, partial: true },
    { content: { role: "model", parts: [call] }, partial: true },
    { content: { role: "model", parts: [{ text: "One moment. " }, call] }, partial: false },
  ];
}

describe("ADK call ids through Tether", () => {
  // Guards research 3.2: ADK runs the calls of partial responses too, so alone it runs this tool twice.
  it.each([
    ["without an id", undefined],
    ["under the model's own id", "call_w"],
  ])("runs a call shown in a partial and again in the final response once, with one TOOL_CALL_START (%s)", async (_, id) => {
    const ran: string[] = [];
    const model = createScriptedLlm([callShownTwice("get_weather", { city: "Paris" }, id), { text: "Sunny in Paris." }]);
    const app = await createAdkApp(assistantAgent(model, [parisWeather(ran)]));
    const events = await app.run({ threadId: "t1", runId: "r1", messages: ask("weather in Paris?") });

    expect(ran).toEqual(["Paris"]);
    const starts = ofType(events, "TOOL_CALL_START");
    expect(starts).toHaveLength(1);
    const callId = starts[0]!.toolCallId!;
    if (id) expect(callId).toBe(id);
    expect(ofType(events, "TOOL_CALL_RESULT").map((event) => event.toolCallId)).toEqual([callId]);
    expect(JSON.parse(resultOf(events, callId)!)).toEqual({ city: "Paris", forecast: "sunny" });
    expect(finished(events)).toEqual({ type: "success" });
    // The model heard of one call with one answer.
    expect(model.requests).toHaveLength(2);
    expect(callsIn(model.requests[1]!.contents)).toHaveLength(1);
    expect(responsesIn(model.requests[1]!.contents)).toHaveLength(1);
  });

  // Guards research 3.2 again: alone, ADK sends two confirmation requests (two trios) for the one call.
  it("asks once about a call held for confirmation that the stream showed twice, and runs it once when approved", async () => {
    const ran: string[] = [];
    const deleteFile = deleteFileTool({ onRun: (path) => ran.push(path) });
    const model = createScriptedLlm([callShownTwice("delete_file", { path: "/tmp/x" }), { text: "Deleted." }]);
    const app = await createAdkApp(assistantAgent(model, [deleteFile]));
    const first = await app.run({ threadId: "t1", runId: "r1", messages: ask("delete /tmp/x") });

    expect(ofType(first, "TOOL_CALL_START")).toHaveLength(1);
    const interrupts = interruptsOf(first);
    expect(interrupts).toHaveLength(1);
    expect(interrupts[0]!.toolCallId).toBe(ofType(first, "TOOL_CALL_START")[0]!.toolCallId);
    expect(ran).toEqual([]);

    const second = await app.run({ threadId: "t1", runId: "r2", resume: [approve(interrupts[0]!.id)] });
    expect(ran).toEqual(["/tmp/x"]);
    expect(JSON.parse(resultOf(second, interrupts[0]!.toolCallId)!)).toEqual({ deleted: "/tmp/x" });
    expect(finished(second)).toEqual({ type: "success" });
  });

  // Guards research 3.5: ADK pairs responses by id, the last one winning, so alone Paris's call is answered with Oslo's weather.
  it("pairs each result with its own call when the provider reuses call_0 in two turns of one invocation", async () => {
    const ran: string[] = [];
    const model = createScriptedLlm([
      { toolCalls: [{ toolName: "get_weather", input: { city: "Paris" }, toolCallId: "call_0" }] },
      { toolCalls: [{ toolName: "get_weather", input: { city: "Oslo" }, toolCallId: "call_0" }] },
      { text: "Sunny in Paris, snow in Oslo." },
    ]);
    const app = await createAdkApp(assistantAgent(model, [parisWeather(ran)]));
    const events = await app.run({ threadId: "t1", runId: "r1", messages: ask("weather in Paris, then Oslo?") });

    expect(ran).toEqual(["Paris", "Oslo"]);
    const [paris, oslo] = ofType(events, "TOOL_CALL_START").map((event) => event.toolCallId!);
    // The model's id is kept the first time; the second call gets one of its own.
    expect(paris).toBe("call_0");
    expect(oslo).not.toBe("call_0");
    expect(JSON.parse(resultOf(events, paris!)!)).toEqual({ city: "Paris", forecast: "sunny" });
    expect(JSON.parse(resultOf(events, oslo!)!)).toEqual({ city: "Oslo", forecast: "snow" });
    expect(callsWithResponses(model.requests[2]!.contents)).toEqual([
      { name: "get_weather", args: { city: "Paris" }, response: { city: "Paris", forecast: "sunny" } },
      { name: "get_weather", args: { city: "Oslo" }, response: { city: "Oslo", forecast: "snow" } },
    ]);
    const stored = await app.store.getMessages("t1");
    const results = stored.flatMap((message) => (message.role === "tool" ? [[message.toolCallId, JSON.parse(String(message.content)).city]] : []));
    expect(results).toEqual([
      [paris, "Paris"],
      [oslo, "Oslo"],
    ]);
  });

  // Guards research 3.5 across runs: the replayed thread would hold two calls call_0, and ADK would answer both with the last result.
  it("gives a new id to a call_0 the provider sends again in a later run of the thread", async () => {
    const ran: string[] = [];
    const model = createScriptedLlm([
      { toolCalls: [{ toolName: "get_weather", input: { city: "Paris" }, toolCallId: "call_0" }] },
      { text: "Sunny in Paris." },
      { toolCalls: [{ toolName: "get_weather", input: { city: "Oslo" }, toolCallId: "call_0" }] },
      { text: "Snow in Oslo." },
    ]);
    const app = await createAdkApp(assistantAgent(model, [parisWeather(ran)]));
    await app.run({ threadId: "t1", runId: "r1", messages: ask("weather in Paris?") });
    const second = await app.run({
      threadId: "t1",
      runId: "r2",
      messages: [...(await app.store.getMessages("t1")), userMessage("u2", "and Oslo?")],
    });

    const oslo = ofType(second, "TOOL_CALL_START")[0]!.toolCallId!;
    expect(oslo).not.toBe("call_0");
    expect(JSON.parse(resultOf(second, oslo)!)).toEqual({ city: "Oslo", forecast: "snow" });
    expect(callsWithResponses(model.requests[3]!.contents)).toEqual([
      { name: "get_weather", args: { city: "Paris" }, response: { city: "Paris", forecast: "sunny" } },
      { name: "get_weather", args: { city: "Oslo" }, response: { city: "Oslo", forecast: "snow" } },
    ]);
  });

  describe("several calls of one tool in one turn, whose runs take different times", () => {
    const CITIES = ["Paris", "Oslo", "Lima", "Kyiv", "Pune", "Oran"];

    function slowLookup(done: string[]) {
      return new FunctionTool({
        name: "lookup",
        description: "Looks a city up.",
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          // Random delays: ADK 2.0.0 runs a turn's calls one after another, so they change nothing yet; an ADK
          // that runs them at once (as adk-python does) would finish them out of turn. Shuffled results are
          // the reader's own test (read-adk-events.test.ts).
          await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 25)));
          done.push(city);
          return { city, letters: city.length, initial: city[0] };
        },
      });
    }

    function cityCallsOf(events: BaseEvent[]) {
      return ofType(events, "TOOL_CALL_START")
        .filter((start) => start.toolCallName === "lookup")
        .map((start) => {
          const args = ofType(events, "TOOL_CALL_ARGS").find((event) => event.toolCallId === start.toolCallId)!.delta as string;
          return { toolCallId: start.toolCallId!, city: JSON.parse(args).city as string };
        });
    }

    // Guards research 3.6 (parallel calls): ids minted per call and results paired by id, never by name or order.
    it("streams each TOOL_CALL_RESULT on its own id with its own content, and the model hears each city once", async () => {
      const done: string[] = [];
      const steps: ScriptedLlmStep[] = [{ toolCalls: CITIES.map((city) => ({ toolName: "lookup", input: { city } })) }, { text: "Looked them up." }];
      const model = createScriptedLlm(steps);
      const app = await createAdkApp(assistantAgent(model, [slowLookup(done)]));
      const events = await app.run({ threadId: "t1", runId: "r1", messages: ask("look up six cities") });

      expect([...done].sort()).toEqual([...CITIES].sort());
      const calls = cityCallsOf(events);
      expect(calls.map((call) => call.city)).toEqual(CITIES);
      expect(new Set(calls.map((call) => call.toolCallId)).size).toBe(CITIES.length);
      for (const { toolCallId, city } of calls) expect(JSON.parse(resultOf(events, toolCallId)!)).toEqual({ city, letters: city.length, initial: city[0] });
      expect(ofType(events, "TOOL_CALL_RESULT")).toHaveLength(CITIES.length);
      expect(callsWithResponses(model.requests[1]!.contents)).toEqual(
        CITIES.map((city) => ({ name: "lookup", args: { city }, response: { city, letters: city.length, initial: city[0] } })),
      );
    });

    // Guards research 3.1 with several calls of one name: ADK drops their results beside a held call; Tether's capture keeps each by id.
    it("keeps each one's own result when ADK drops them beside a call held for confirmation", async () => {
      const done: string[] = [];
      const deleteFile = deleteFileTool();
      const model = createScriptedLlm([
        {
          toolCalls: [
            ...CITIES.slice(0, 3).map((city) => ({ toolName: "lookup", input: { city } })),
            { toolName: "delete_file", input: { path: "/tmp/x" } },
            ...CITIES.slice(3).map((city) => ({ toolName: "lookup", input: { city } })),
          ],
        },
        { text: "Done." },
      ]);
      const app = await createAdkApp(assistantAgent(model, [slowLookup(done), deleteFile]));
      const first = await app.run({ threadId: "t1", runId: "r1", messages: ask("look up six cities and delete /tmp/x") });

      const calls = cityCallsOf(first);
      expect(calls.map((call) => call.city)).toEqual(CITIES);
      for (const { toolCallId, city } of calls) expect(JSON.parse(resultOf(first, toolCallId)!)).toEqual({ city, letters: city.length, initial: city[0] });
      const [question] = interruptsOf(first);
      expect(question).toBeDefined();

      await app.run({ threadId: "t1", runId: "r2", resume: [approve(question!.id)] });
      const answered = callsWithResponses(model.requests[1]!.contents);
      expect(answered.filter((pair) => pair.name === "lookup")).toEqual(
        CITIES.map((city) => ({ name: "lookup", args: { city }, response: { city, letters: city.length, initial: city[0] } })),
      );
      expect(answered.find((pair) => pair.name === "delete_file")).toEqual({ name: "delete_file", args: { path: "/tmp/x" }, response: { deleted: "/tmp/x" } });
    });
  });
});
