import type { Message } from "@ag-ui/core";
import { FunctionTool, type Context } from "@google/adk";
import type { ScriptedLlmStep } from "@tether-agent/tether/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { userMessage } from "../fixtures/messages.ts";
import { finished, resultOf, spoken } from "../helpers/run-events.ts";
import { createAdkApp, interruptsOf } from "./adk-app.ts";
import { deleteFileTool, scriptedAgent, weatherTool } from "./fixtures.ts";
import { ofType } from "./model-requests.ts";

/**
 * Where an ADK agent's conversation and state come from: the client's history when the client owns
 * it, the run's state (the client's edit, else the thread's) as the session's start; and where ADK's
 * state changes go: through the run's state holder (checked, streamed as AG-UI STATE_DELTA, stored),
 * except ADK's own `temp:` keys.
 */

const weatherHistory: Message[] = [
  { id: "u1", role: "user", content: "weather in Paris?" },
  { id: "a1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
  { id: "t1", role: "tool", toolCallId: "c1", content: '{"city":"Paris","forecast":"sunny"}' },
  { id: "a2", role: "assistant", content: "Sunny in Paris." },
  { id: "u2", role: "user", content: "and in Oslo?" },
];

/** What the client's history must reach the model as, turn by turn. */
const weatherContents = [
  { role: "user", parts: [{ text: "weather in Paris?" }] },
  { role: "model", parts: [{ functionCall: { id: "c1", name: "get_weather", args: { city: "Paris" } } }] },
  { role: "user", parts: [{ functionResponse: { id: "c1", name: "get_weather", response: { city: "Paris", forecast: "sunny" } } }] },
  { role: "model", parts: [{ text: "Sunny in Paris." }] },
  { role: "user", parts: [{ text: "and in Oslo?" }] },
];

/** An agent whose `get_weather` says snow everywhere. */
const weatherAgent = (steps: ScriptedLlmStep[]) => scriptedAgent(steps, [weatherTool({ forecast: () => "snow" })]);

describe("an ADK agent whose client owns the history", () => {
  // Guards against a converter that keeps ADK's own session per thread: the model would hear that session, not what the client sent.
  it("replays ADK's session from the client's messages: the model sees the history the client sent, its call and result included", async () => {
    const { agent, model } = weatherAgent([{ text: "Snow in Oslo." }]);
    const app = await createAdkApp(agent, { history: "client" });
    const events = await app.run({ threadId: "t1", runId: "r1", messages: weatherHistory });

    expect(spoken(events)).toBe("Snow in Oslo.");
    expect(model.requests[0]!.contents).toEqual(weatherContents);
  });

  it("takes the client's version when it differs from what an earlier run said, and a new instance hears the same", async () => {
    const { agent, model } = weatherAgent([{ text: "Hello Ana." }, { text: "You are Bo." }, { text: "You are Bo." }]);
    const app = await createAdkApp(agent, { history: "client" });
    await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "I am Ana.")] });
    // The client set that turn aside and wrote another one.
    const edited: Message[] = [
      { id: "u1b", role: "user", content: "I am Bo." },
      { id: "a1b", role: "assistant", content: "Hello Bo." },
      { id: "u2", role: "user", content: "Who am I?" },
    ];
    const expected = [
      { role: "user", parts: [{ text: "I am Bo." }] },
      { role: "model", parts: [{ text: "Hello Bo." }] },
      { role: "user", parts: [{ text: "Who am I?" }] },
    ];
    await app.run({ threadId: "t1", runId: "r2", messages: edited });
    expect(model.requests[1]!.contents).toEqual(expected);

    // Another instance with nothing stored: the same request, the same conversation for the model.
    const other = await createAdkApp(agent, { history: "client", idPrefix: "other-" });
    await other.run({ threadId: "t1", runId: "r3", messages: edited });
    expect(model.requests[2]!.contents).toEqual(expected);
  });

  // Guards design 4.8: replayed as it is, ADK would send the model a call without its response, which Gemini refuses (400).
  it("answers a call the client's history left without a result with 'no result was reported', right after the call", async () => {
    const { agent, model } = weatherAgent([{ text: "Fine." }]);
    const app = await createAdkApp(agent, { history: "client" });
    const events = await app.run({
      threadId: "t1",
      runId: "r1",
      messages: [
        { id: "u1", role: "user", content: "weather in Paris?" },
        { id: "a1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
        { id: "u2", role: "user", content: "never mind" },
      ],
    });

    expect(finished(events)).toEqual({ type: "success" });
    const contents = model.requests[0]!.contents;
    expect(contents.slice(0, 2)).toEqual(weatherContents.slice(0, 2));
    expect(contents.slice(2).flatMap((content) => content.parts ?? [])).toEqual([
      {
        functionResponse: {
          id: "c1",
          name: "get_weather",
          response: {
            status: "unknown",
            reason: "no_result_reported",
            message: "No result was reported for get_weather before the conversation moved on; it may or may not have happened.",
          },
        },
      },
      { text: "never mind" },
    ]);
  });
});

describe("ADK state through Tether", () => {
  /** A tool that reads the client's units and writes the city it was asked about, plus a scratch value only ADK keeps. */
  function stateful(steps: ScriptedLlmStep[], extra: FunctionTool[] = []) {
    const read: unknown[] = [];
    const getWeather = new FunctionTool({
      name: "get_weather",
      description: "The weather in a city, in the user's units.",
      parameters: z.object({ city: z.string() }),
      execute: ({ city }, context?: Context) => {
        const units = context!.state.get<string>("units");
        read.push({ units, lastCity: context!.state.get("lastCity") ?? null });
        context!.state.set("lastCity", city);
        context!.state.set("temp:scratch", "ADK's own");
        context!.state.set("ui/panel", "weather");
        return { city, temperature: units === "fahrenheit" ? "41F" : "5C" };
      },
    });
    return { ...scriptedAgent(steps, [getWeather, ...extra]), read };
  }

  // Guards against a converter that starts ADK's session empty, and one that passes ADK's stateDelta on as it is (temp: keys included).
  it("starts ADK's session from the client's state, and sends each state change as a STATE_DELTA add, temp: keys left out", async () => {
    const { agent, read } = stateful([{ toolCalls: [{ toolName: "get_weather", input: { city: "Oslo" } }] }, { text: "41F in Oslo." }]);
    const app = await createAdkApp(agent);
    const events = await app.run({
      threadId: "t1",
      runId: "r1",
      messages: [userMessage("u1", "weather in Oslo?")],
      state: { units: "fahrenheit" },
    });

    expect(read).toEqual([{ units: "fahrenheit", lastCity: null }]);
    expect(JSON.parse(resultOf(events, ofType(events, "TOOL_CALL_START")[0]!.toolCallId!)!)).toEqual({ city: "Oslo", temperature: "41F" });
    const deltas = ofType(events, "STATE_DELTA").map((event) => event.delta);
    expect(deltas).toEqual([
      [
        { op: "add", path: "/lastCity", value: "Oslo" },
        { op: "add", path: "/ui~1panel", value: "weather" },
      ],
    ]);
    expect(JSON.stringify(events)).not.toContain("temp:");
    expect(JSON.stringify(events)).not.toContain("ADK's own");
  });

  it("puts the changed state, without temp: keys, in the snapshot before an interrupt", async () => {
    const deleteFile = deleteFileTool();
    const { agent } = stateful(
      [
        {
          toolCalls: [
            { toolName: "get_weather", input: { city: "Paris" } },
            { toolName: "delete_file", input: { path: "/tmp/x" } },
          ],
        },
      ],
      [deleteFile],
    );
    const app = await createAdkApp(agent);
    const events = await app.run({
      threadId: "t1",
      runId: "r1",
      messages: [userMessage("u1", "weather, and delete /tmp/x")],
      state: { units: "celsius" },
    });

    expect(interruptsOf(events)).toHaveLength(1);
    // research 3.1: ADK keeps the state change of the call whose result it drops; it goes out all the same.
    expect(ofType(events, "STATE_DELTA").flatMap((event) => event.delta as unknown[])).toContainEqual({ op: "add", path: "/lastCity", value: "Paris" });
    const snapshot = ofType(events, "STATE_SNAPSHOT").at(-1) as { snapshot?: unknown } | undefined;
    expect(snapshot?.snapshot).toEqual({ units: "celsius", lastCity: "Paris", "ui/panel": "weather" });
  });

  // ADK throws at a call to an unknown tool and loses the state changes of the calls that ran before it, with their responses.
  it("sends the state a tool wrote beside a call to an unknown tool, and carries it into the run's next ADK invocation", async () => {
    // The unknown call makes Tether answer it and run ADK a second time in the same run.
    const { agent, read } = stateful([
      {
        toolCalls: [
          { toolName: "get_weather", input: { city: "Paris" } },
          { toolName: "nope", input: {} },
        ],
      },
      { toolCalls: [{ toolName: "get_weather", input: { city: "Lima" } }] },
      { text: "Done." },
    ]);
    const app = await createAdkApp(agent);
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "weather")], state: { units: "celsius" } });

    expect(finished(events)).toEqual({ type: "success" });
    expect(ofType(events, "STATE_DELTA").map((event) => event.delta)).toEqual([
      [
        { op: "add", path: "/lastCity", value: "Paris" },
        { op: "add", path: "/ui~1panel", value: "weather" },
      ],
      [
        { op: "add", path: "/lastCity", value: "Lima" },
        { op: "add", path: "/ui~1panel", value: "weather" },
      ],
    ]);
    expect(read).toEqual([
      { units: "celsius", lastCity: null },
      { units: "celsius", lastCity: "Paris" },
    ]);
  });

  // Guards against state kept only in ADK's per-step session: the thread keeps it, a reload and the next run start from it.
  it("stores the state ADK changed, and the next run's session starts from it though the client sends none", async () => {
    const { agent, read } = stateful([{ toolCalls: [{ toolName: "get_weather", input: { city: "Oslo" } }] }, { text: "5C." }, { text: "Oslo again?" }]);
    const app = await createAdkApp(agent);
    await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "weather in Oslo?")], state: { units: "celsius" } });
    const stored = { units: "celsius", lastCity: "Oslo", "ui/panel": "weather" };
    expect((await app.store.getThread("t1"))?.state).toEqual(stored);
    expect((await app.store.getRun("r1"))?.state).toEqual(stored);

    const events = await app.run({ threadId: "t1", runId: "r2", messages: [userMessage("u2", "and now?")], state: {} });
    expect(events[1]).toMatchObject({ type: "STATE_SNAPSHOT", snapshot: stored });
    expect(read).toEqual([{ units: "celsius", lastCity: null }]);
    expect(finished(events)).toEqual({ type: "success" });
  });

  it("leaves out, and logs, a state change the agent's schema refuses: Tether's state stays valid", async () => {
    const { agent } = stateful([{ toolCalls: [{ toolName: "get_weather", input: { city: "Oslo" } }] }, { text: "5C." }]);
    // lastCity must be one of two cities; ADK's tool writes Oslo.
    const schema = z.object({ units: z.string(), lastCity: z.enum(["Paris", "Lima"]).optional(), "ui/panel": z.string().optional() });
    const app = await createAdkApp(agent, { state: { schema, initial: { units: "celsius" } } });
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "weather in Oslo?")] });

    expect(ofType(events, "STATE_DELTA")).toEqual([]);
    expect(finished(events)).toEqual({ type: "success" });
    expect((await app.store.getThread("t1"))?.state).toEqual({ units: "celsius" });
    const log = (await app.store.getRun("r1"))!.log.map((entry) => entry.message).join("\n");
    expect(log).toMatch(
      /STATE_DELTA \(The state change \(add "\/lastCity", add "\/ui~1panel"\) was refused: .*\/lastCity must be equal to one of the allowed values/,
    );
  });
});
