import { expect } from "vitest";
import { EventType, HttpAgent, type AgentSubscriber, type BaseEvent, type RunErrorEvent, type RunFinishedEvent, type ToolCallResultEvent } from "@ag-ui/client";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createCountingIds } from "@tether-agent/tether/testing";
import { createMemoryRunStore, type StoredRun } from "@tether-agent/tether/store";
import { createTetherApp, silentLogger, type RetryPolicy, type TetherApp } from "@tether-agent/tether/server";
import {
  WORKDESK_USERS,
  createSqliteWorkRequestRepository,
  createWorkdeskAgent,
  navigateToScreen,
  type WorkdeskUser,
} from "../../apps/workdesk/agent/index.ts";
import { listen, type Listening } from "@tether-agent/tether/node";

/** The browser tool the Workdesk page declares on every run. */
export const BROWSER_TOOLS = [toAgUiTool(navigateToScreen)];

export interface TetherStack {
  url: string;
  tether: TetherApp<WorkdeskUser>;
  /** A plain, unmodified AG-UI HttpAgent for the Workdesk agent, signed in as kim (ORG-01, requester). */
  agent(threadId: string): HttpAgent;
  /** Tether's own API as kim: cancel a run, read its record. */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** The run as the store keeps it, once its record is readable. */
  storedRun(runId: string): Promise<StoredRun>;
  close(): Promise<void>;
}

/**
 * The Workdesk agent on `model`, in a Tether app on a loopback port, as the
 * demo serves it. `retry` shortens the pauses between attempts so rate-limit
 * tests stay fast; `createWorkdeskAgent` has no retry option, so it is set on
 * the agent it returns.
 */
export async function startTetherStack(model: LanguageModelV3, options: { retry?: Partial<RetryPolicy> } = {}): Promise<TetherStack> {
  const requests = await createSqliteWorkRequestRepository({ filename: ":memory:" });
  const workdesk = createWorkdeskAgent({ model, requests });
  const agent = options.retry ? { ...workdesk, retry: { ...workdesk.retry, ...options.retry } } : workdesk;
  const tether = await createTetherApp({
    agents: [agent],
    authenticate: (request) => WORKDESK_USERS.find((user) => user.id === request.headers.get("x-user")),
    store: createMemoryRunStore(),
    logger: silentLogger,
    ids: createCountingIds("tether_"),
  });
  const server: Listening = await listen(tether.app, { port: 0, host: "127.0.0.1" });
  const api = (path: string, init: RequestInit = {}) => fetch(`${server.url}/api${path}`, { ...init, headers: { "x-user": "kim", ...init.headers } });
  return {
    url: server.url,
    tether,
    agent: (threadId) => new HttpAgent({ url: `${server.url}/api/agents/workdesk/run`, headers: { "x-user": "kim" }, threadId }),
    api,
    async storedRun(runId) {
      // The record is readable, and the run row behind it says how the run ended and what it logged.
      expect((await api(`/runs/${runId}/record`)).status).toBe(200);
      return (await tether.store.getRun(runId)) as StoredRun;
    },
    async close() {
      await server.close();
      await tether.close();
      requests.closeDatabase();
    },
  };
}

/** What the unmodified HttpAgent saw of one run. It parses, enforces and verifies the stream, and fails the run on an invalid one. */
export interface RunResult {
  events: BaseEvent[];
  finished?: RunFinishedEvent;
  runError?: RunErrorEvent;
  pendingToolCallIds: string[];
  /** The run failed in the client: an invalid stream, or a RUN_ERROR. */
  failed?: Error;
}

export type RunParameters = NonNullable<Parameters<HttpAgent["runAgent"]>[0]>;

/** Runs the agent with the Workdesk browser tool declared; `onEvent` sees each event as it is applied. */
export async function runAgent(agent: HttpAgent, parameters: RunParameters = {}, onEvent?: (event: BaseEvent) => void): Promise<RunResult> {
  const result: RunResult = { events: [], pendingToolCallIds: [] };
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => {
      result.events.push(event);
      onEvent?.(event);
    },
    onRunFinishedEvent: (params) => {
      result.finished = params.event;
      if (params.outcome === "success") result.pendingToolCallIds = params.pendingToolCallIds;
    },
    onRunErrorEvent: ({ event }) => {
      result.runError = event;
    },
    onRunFailed: ({ error }) => {
      result.failed = error;
    },
  };
  try {
    await agent.runAgent({ tools: BROWSER_TOOLS, ...parameters }, subscriber);
  } catch (error) {
    result.failed ??= error as Error;
  }
  return result;
}

export const ofType = <T extends BaseEvent>(result: RunResult, type: EventType) => result.events.filter((event) => event.type === type) as T[];

/** A tool result's content, which Tether always sends as JSON text. */
export const parseResult = (event: ToolCallResultEvent | undefined) => JSON.parse(event?.content as string);
