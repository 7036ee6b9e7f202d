import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyEvents, type BaseEvent } from "@ag-ui/client";
import type { Message, RunAgentInput } from "@ag-ui/core";
import { defineBrowserTool, toAgUiTool } from "@tether-agent/tether/protocol";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, defineTool, silentLogger, type AgentDefinition, type TetherApp } from "@tether-agent/tether/server";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { from, lastValueFrom, toArray } from "rxjs";
import { z } from "zod";

/**
 * A hostile upstream AG-UI agent: a node:http server whose every answer a
 * test writes by hand, byte by byte if it likes, chosen by the last user
 * message of the request. Tether stands in front of it as agent `front`.
 */

export type Scenario = (response: ServerResponse, input: RunAgentInput, request: IncomingMessage) => void | Promise<void>;

export const frame = (event: object) => `data: ${JSON.stringify(event)}\n\n`;
export const started = (runId = "up-run") => ({ type: "RUN_STARTED", threadId: "up-thread", runId });
export const finishedEvent = (runId = "up-run") => ({ type: "RUN_FINISHED", threadId: "up-thread", runId });
export const textEvents = (messageId: string, delta: string) => [
  { type: "TEXT_MESSAGE_START", messageId, role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId, delta },
  { type: "TEXT_MESSAGE_END", messageId },
];
export const callEvents = (toolCallId: string, toolCallName: string, args: string) => [
  { type: "TOOL_CALL_START", toolCallId, toolCallName },
  { type: "TOOL_CALL_ARGS", toolCallId, delta: args },
  { type: "TOOL_CALL_END", toolCallId },
];

/** Answers with these events as SSE, framed as `frame` does (or as given, for a string), then ends. */
export function sse(...events: Array<object | string>): Scenario {
  return (response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const event of events) response.write(typeof event === "string" ? event : frame(event));
    response.end();
  };
}

/**
 * Writes `head`, then `piece` until `total` bytes are written or the reader hangs up, as fast as it
 * reads (backpressure), and tells `written` how far it got: a flood the reader may stop.
 */
export function flood(options: { status?: number; contentType?: string; head?: string; piece: Buffer; total: number; written(bytes: number): void }): Scenario {
  return (response) => {
    let bytes = 0;
    response.on("close", () => options.written(bytes));
    response.writeHead(options.status ?? 200, { "content-type": options.contentType ?? "text/event-stream" });
    response.write(options.head ?? "");
    const write = () => {
      while (bytes < options.total && !response.destroyed) {
        bytes += options.piece.length;
        if (!response.write(options.piece)) return void response.once("drain", write);
      }
      response.end();
    };
    write();
  };
}

/** A run of the upstream: RUN_STARTED, these events, RUN_FINISHED, as SSE. */
export const upstreamRun = (...events: object[]) => sse(started(), ...events, finishedEvent());

export const navigateToScreen = defineBrowserTool({
  name: "navigateToScreen",
  kind: "follow-up",
  description: "Opens a screen of the app.",
  parameters: z.object({ screenId: z.string() }),
});

/** A server tool of Tether's agent: it records each call it ran. */
export const serverCalls: unknown[] = [];
const lookupRecord = defineTool({
  name: "lookupRecord",
  description: "Finds a record.",
  parameters: z.object({ id: z.string() }),
  execute: (args) => {
    serverCalls.push(args);
    return { found: args.id };
  },
});

export interface Hostile {
  url: string;
  tether: TetherApp;
  /** The run log entries Tether wrote, per run id. */
  logs: Map<string, string[]>;
  /** How many requests the upstream got. */
  requests(): number;
  close(): Promise<void>;
}

/** Starts the upstream and a Tether app in front of it (`front`, plus any agents `more` defines on the same url). */
export async function startHostile(
  scenarios: Record<string, Scenario>,
  upstreamOptions: Record<string, unknown> = {},
  more: (url: string) => AgentDefinition[] = () => [],
): Promise<Hostile> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests++;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const input = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RunAgentInput;
      const last = input.messages.findLast((message) => message.role === "user");
      const scenario = scenarios[typeof last?.content === "string" ? last.content : ""];
      if (!scenario) return void response.writeHead(404).end("no scenario");
      void Promise.resolve(scenario(response, input, request)).catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  const logs = new Map<string, string[]>();
  const store = createMemoryRunStore();
  const appendLog = store.appendLog.bind(store);
  store.appendLog = async (runId, entries) => {
    logs.set(runId, [...(logs.get(runId) ?? []), ...entries.map((entry) => `${entry.code}: ${entry.message}`)]);
    return appendLog(runId, entries);
  };
  const tether = await createTetherApp({
    agents: [
      defineAgent({
        id: "front",
        upstream: { url, firstEventTimeoutMs: 2_000, idleTimeoutMs: 2_000, ...upstreamOptions },
        browserTools: [navigateToScreen],
        tools: [lookupRecord],
      }),
      ...more(url).map((definition) => defineAgent(definition)),
    ],
    authenticate: () => ({ id: "kim" }),
    store,
    logger: silentLogger,
  });
  return {
    url,
    tether,
    logs,
    requests: () => requests,
    close: async () => {
      await tether.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface Asked {
  status: number;
  events: BaseEvent[];
  /** The thread as Tether stored it after the run. */
  messages: Message[];
  pendingToolCallIds: string[];
}

/**
 * One run of `front` (or `agentId`), as a plain AG-UI client sends it: the first of a new thread, or,
 * after `earlier` (the thread as the last run left it), the next.
 */
export async function ask(hostile: Hostile, threadId: string, text: string, agentId = "front", earlier: Message[] = []): Promise<Asked> {
  const turn = earlier.filter((message) => message.role === "user").length + 1;
  const response = await hostile.tether.app.request(`/api/agents/${agentId}/run`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({
      threadId,
      runId: `${threadId}-r${turn}`,
      messages: [...earlier, { id: `${threadId}-u${turn}`, role: "user", content: text }],
      tools: [toAgUiTool(navigateToScreen)],
      context: [],
      state: {},
      forwardedProps: {},
    }),
  });
  const events = parseSseFrames(await response.text()).map((frame) => frame.data as BaseEvent);
  const thread = (await (await hostile.tether.app.request(`/api/threads/${threadId}`)).json()) as {
    messages: Message[];
    pendingToolCalls: Array<{ toolCallId: string }>;
  };
  return { status: response.status, events, messages: thread.messages, pendingToolCallIds: thread.pendingToolCalls.map((call) => call.toolCallId) };
}

/** The events, passed through @ag-ui/client's verifier: rejects when a generic client would refuse the stream. */
export const verified = (events: BaseEvent[]) => lastValueFrom(from(events).pipe(verifyEvents(), toArray()));

/** The run's last event. */
export const lastEvent = (asked: Asked) => asked.events.at(-1) as BaseEvent & { code?: string; message?: string };
