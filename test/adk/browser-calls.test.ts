import type { Message } from "@ag-ui/core";
import { createAgentSession, type BrowserToolHandler } from "@tether-agent/tether/client";
import { listen } from "@tether-agent/tether/node";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createMemoryStorage } from "@tether-agent/tether/testing";
import { createScriptedLlm, type ScriptedLlmStep } from "@tether-agent/tether/adk";
import { describe, expect, it, vi } from "vitest";
import { finished, resultOf, spoken } from "../helpers/run-events.ts";
import { createAdkApp } from "./adk-app.ts";
import { ask, assistantAgent, openPanel, weatherTool } from "./fixtures.ts";
import { callsWithResponses, ofType } from "./model-requests.ts";

/**
 * Browser calls of an ADK agent: left to the browser, answered by it once, and heard by the agent
 * with every other result of their turn. Calls the server refuses are answered by Tether.
 */

const tools = [toAgUiTool(openPanel)];
const opened = JSON.stringify({ status: "succeeded", stage: "displayed" });

/** An ADK agent with one server tool (get_weather) on a scripted model, served with openPanel as a browser tool. */
async function weatherAgent(steps: ScriptedLlmStep[], options: { chunkDelayMs?: number } = {}) {
  const ran: string[] = [];
  const getWeather = weatherTool({ onRun: (city) => ran.push(city) });
  const model = createScriptedLlm(steps, options);
  const app = await createAdkApp(assistantAgent(model, [getWeather]), { browserTools: [openPanel] });
  return { app, model, ran };
}

const panelThenWeather: ScriptedLlmStep = {
  toolCalls: [
    { toolName: "openPanel", input: { panel: "weather" } },
    { toolName: "get_weather", input: { city: "Paris" } },
  ],
};

describe("an ADK agent's browser calls", () => {
  // Guards research 3.3: alone, ADK runs get_weather and calls the model again with openPanel unanswered.
  it("streams the server call's result, leaves the browser call pending, and calls the model once", async () => {
    const { app, model, ran } = await weatherAgent([panelThenWeather, { text: "The weather panel is open: sunny in Paris." }]);
    const first = await app.run({ threadId: "t1", runId: "r1", messages: ask("show the weather panel and tell me Paris's weather"), tools });

    const [panel, weather] = ofType(first, "TOOL_CALL_START").map((event) => event.toolCallId!);
    expect(ofType(first, "TOOL_CALL_START").map((event) => event.toolCallName)).toEqual(["openPanel", "get_weather"]);
    expect(ran).toEqual(["Paris"]);
    expect(JSON.parse(resultOf(first, weather!)!)).toEqual({ city: "Paris", forecast: "sunny" });
    expect(resultOf(first, panel!)).toBeUndefined();
    expect(finished(first)).toEqual({ type: "success", pendingToolCallIds: [panel] });
    expect(model.requests).toHaveLength(1);

    // The browser reports; the agent hears both results of its turn.
    const answer: Message = { id: "t1-result", role: "tool", toolCallId: panel!, content: opened };
    const second = await app.run({ threadId: "t1", runId: "r2", messages: [...(await app.store.getMessages("t1")), answer], tools });
    expect(spoken(second)).toBe("The weather panel is open: sunny in Paris.");
    expect(finished(second)).toEqual({ type: "success" });
    expect(ran).toEqual(["Paris"]);
    expect(model.requests).toHaveLength(2);
    expect(callsWithResponses(model.requests[1]!.contents)).toEqual([
      { name: "openPanel", args: { panel: "weather" }, response: { status: "succeeded", stage: "displayed" } },
      { name: "get_weather", args: { city: "Paris" }, response: { city: "Paris", forecast: "sunny" } },
    ]);
  });

  describe("exactly once", () => {
    /**
     * A fetch whose first run stream breaks right after openPanel's `marker` frame,
     * as a dropped connection does: the client then resumes from the thread's events with Last-Event-ID.
     */
    function droppingFetch(marker: "TOOL_CALL_START" | "TOOL_CALL_END") {
      let dropped = false;
      const resumes: string[] = [];
      const fetchOnce: typeof fetch = async (url, init) => {
        if (String(url).includes("/events")) resumes.push(new Headers(init?.headers).get("last-event-id") ?? "");
        const response = await fetch(url, init);
        if (dropped || !String(url).endsWith("/run") || !response.body) return response;
        dropped = true;
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        const encoder = new TextEncoder();
        let buffered = "";
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const { value, done } = await reader.read();
            if (done) return controller.close();
            buffered += decoder.decode(value, { stream: true });
            const frames = buffered.split("\n\n");
            buffered = frames.pop() ?? "";
            for (const frame of frames) {
              controller.enqueue(encoder.encode(`${frame}\n\n`));
              // TOOL_CALL_END names no tool: the turn's first END is openPanel's, the first call.
              if (frame.includes(`"type":"${marker}"`) && (marker === "TOOL_CALL_END" || frame.includes('"openPanel"'))) {
                void reader.cancel();
                return controller.error(new TypeError("network connection lost"));
              }
            }
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      };
      return { fetch: fetchOnce, resumes };
    }

    // Guards against a converter that runs the ADK agent per request: a resumed stream or a repeated outcome must never run anything again.
    it.each([
      ["after the call started", "TOOL_CALL_START"],
      ["after the call ended, where the browser acts", "TOOL_CALL_END"],
    ] as const)("executes the browser call once when the stream drops %s and the client resumes", async (_, marker) => {
      const { app, model, ran } = await weatherAgent([panelThenWeather, { text: "The weather panel is open: sunny in Paris." }], { chunkDelayMs: 2 });
      const server = await listen(app.tether.app, { port: 0, host: "127.0.0.1" });
      const dropping = droppingFetch(marker);
      try {
        const execute = vi.fn<BrowserToolHandler["execute"]>(() => ({ status: "succeeded", stage: "displayed" }));
        const session = createAgentSession({
          api: `${server.url}/api`,
          agentId: "adk",
          threadId: `drop-${marker}`,
          headers: { "x-user": "kim" },
          storage: createMemoryStorage(),
          drift: "throw",
          fetch: dropping.fetch,
        });
        session.registerTool({ spec: openPanel, execute });
        await session.send("show the weather panel and tell me Paris's weather");

        expect(session.getState().error).toBeUndefined();
        // The stream did drop, and the client resumed after the last event it had.
        expect(dropping.resumes).toEqual([expect.stringMatching(/^[\w-]+:\d+$/)]);
        expect(execute).toHaveBeenCalledTimes(1);
        expect(execute.mock.calls[0]![0]).toEqual({ panel: "weather" });
        expect(ran).toEqual(["Paris"]);
        // Run 1 and the follow-up run that carried the outcome: one model call each.
        expect(model.requests).toHaveLength(2);
        const runs = await app.store.listRuns(`drop-${marker}`);
        expect(runs.map((run) => run.trigger?.kind)).toEqual(["user-message", "tool-result"]);
        const stored = await app.store.getMessages(`drop-${marker}`);
        const panelCalls = stored
          .flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))
          .filter((call) => call.function.name === "openPanel");
        expect(panelCalls).toHaveLength(1);
        expect(stored.filter((message) => message.role === "tool" && message.toolCallId === panelCalls[0]!.id)).toHaveLength(1);
      } finally {
        await server.close();
      }
    });

    it("answers the browser's outcome sent again with the run it started, without a second ADK invocation", async () => {
      const { app, model } = await weatherAgent([panelThenWeather, { text: "The weather panel is open: sunny in Paris." }]);
      const first = await app.run({ threadId: "t1", runId: "r1", messages: ask("show the weather panel and tell me Paris's weather"), tools });
      const panel = (finished(first) as { pendingToolCallIds: string[] }).pendingToolCallIds[0]!;
      const history = await app.store.getMessages("t1");
      const answer: Message = { id: "t1-result", role: "tool", toolCallId: panel, content: opened };
      const body = await (await app.post({ threadId: "t1", runId: "r2", messages: [...history, answer], tools })).text();

      // A retry whose first answer was lost, then the same outcome under a new message id.
      for (const [runId, id] of [
        ["r3", "t1-result"],
        ["r4", "t1-result-again"],
      ] as const) {
        const again = await app.post({ threadId: "t1", runId, messages: [...history, { ...answer, id }], tools });
        expect(again.status).toBe(200);
        expect(again.headers.get("x-tether-repeat-of")).toBe("r2");
        expect(await again.text()).toBe(body);
      }
      expect((await app.store.listRuns("t1")).map((run) => run.runId)).toEqual(["r1", "r2"]);
      expect(model.requests).toHaveLength(2);
    });
  });

  describe("calls Tether answers itself", () => {
    // Guards research 3.6 for browser calls: ADK checks nothing, so alone the browser would get arguments the allow-list refuses.
    it("refuses a browser call whose arguments break the allow-list's schema, and the agent hears it in a second ADK invocation", async () => {
      const { app, model } = await weatherAgent([{ toolCalls: [{ toolName: "openPanel", input: { panel: 42 } }] }, { text: "I could not open that panel." }]);
      const events = await app.run({ threadId: "t1", runId: "r1", messages: ask("open panel 42"), tools });

      const call = ofType(events, "TOOL_CALL_START")[0]!.toolCallId!;
      const refusal = JSON.parse(resultOf(events, call)!);
      expect(refusal.error.code).toBe("invalid_arguments");
      expect(finished(events)).toEqual({ type: "success" });
      expect(spoken(events)).toBe("I could not open that panel.");
      expect(model.requests).toHaveLength(2);
      expect(callsWithResponses(model.requests[1]!.contents)).toEqual([{ name: "openPanel", args: { panel: 42 }, response: refusal }]);
      // Its TOOL_CALL_END tells the browser not to act on it.
      const end = ofType(events, "TOOL_CALL_END").find((event) => event.toolCallId === call) as { metadata?: unknown } | undefined;
      expect(end?.metadata).toEqual({ tether: { doNotRun: "invalid_arguments" } });
    });

    // Guards research 3.6 (unknown tool): alone, ADK stops at the unknown call, never runs the calls after it, and calls the
    // model again with the unknown call unanswered.
    it("answers a call to an unknown tool with tool_unknown, still runs the turn's known call, and the agent hears both", async () => {
      const { app, model, ran } = await weatherAgent([
        {
          toolCalls: [
            { toolName: "nope", input: { x: 1 } },
            { toolName: "get_weather", input: { city: "Paris" } },
          ],
        },
        { text: "Sunny in Paris; I have no tool called nope." },
      ]);
      const events = await app.run({ threadId: "t1", runId: "r1", messages: ask("nope, and Paris's weather"), tools });

      expect(ran).toEqual(["Paris"]);
      const ids = Object.fromEntries(ofType(events, "TOOL_CALL_START").map((event) => [event.toolCallName, event.toolCallId!]));
      expect(JSON.parse(resultOf(events, ids.get_weather!)!)).toEqual({ city: "Paris", forecast: "sunny" });
      const refusal = JSON.parse(resultOf(events, ids.nope!)!);
      expect(refusal.error.code).toBe("tool_unknown");
      expect(finished(events)).toEqual({ type: "success" });
      expect(spoken(events)).toBe("Sunny in Paris; I have no tool called nope.");
      expect(model.requests).toHaveLength(2);
      const heard = callsWithResponses(model.requests[1]!.contents);
      expect(heard).toHaveLength(2);
      expect(heard).toEqual(
        expect.arrayContaining([
          { name: "get_weather", args: { city: "Paris" }, response: { city: "Paris", forecast: "sunny" } },
          { name: "nope", args: { x: 1 }, response: refusal },
        ]),
      );
    });
  });
});
