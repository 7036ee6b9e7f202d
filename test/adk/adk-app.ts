import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { setLogLevel, LogLevel, type LlmAgent } from "@google/adk";
import { createMemoryRunStore, type RunStore } from "@tether-agent/tether/store";
import { createTetherApp, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { createCountingIds, parseSseFrames } from "@tether-agent/tether/testing";
import { defineAdkAgent, type AdkAgentDefinition } from "@tether-agent/tether/adk";
import { KIM, LEE, type TestUser } from "../fixtures/messages.ts";

// ADK logs each run's plugin at INFO; the tests' output is for failures.
setLogLevel(LogLevel.ERROR);

const USERS: Record<string, TestUser> = { kim: KIM, lee: LEE };

export interface AdkApp {
  tether: TetherApp<TestUser>;
  store: RunStore;
  /** POSTs a run as `user` (kim by default). */
  post(input: Partial<RunAgentInput> & Pick<RunAgentInput, "threadId" | "runId">, user?: string): Promise<Response>;
  /** POSTs a run and reads its events. */
  run(input: Partial<RunAgentInput> & Pick<RunAgentInput, "threadId" | "runId">, user?: string): Promise<BaseEvent[]>;
  /** Asks, as kim, to cancel a run. */
  cancel(runId: string): Promise<Response>;
}

/**
 * A Tether app in process serving one ADK agent ("adk") on a memory store (or the one given), with
 * counting ids; a second app on the same store (a restart) needs its own `idPrefix`.
 */
export async function createAdkApp(
  agent: LlmAgent,
  options: Partial<AdkAgentDefinition<TestUser>> & { store?: RunStore; idPrefix?: string } = {},
): Promise<AdkApp> {
  const { store = createMemoryRunStore(), idPrefix, ...definition } = options;
  const tether = await createTetherApp({
    agents: [defineAdkAgent<TestUser>({ id: "adk", agent, ...definition })],
    authenticate: (request) => USERS[request.headers.get("x-user") ?? ""],
    store,
    logger: silentLogger,
    ids: createCountingIds(idPrefix),
  });
  const post: AdkApp["post"] = async (input, user = "kim") =>
    tether.app.request("/api/agents/adk/run", {
      method: "POST",
      headers: { "content-type": "application/json", "x-user": user },
      body: JSON.stringify({ messages: [], tools: [], context: [], state: {}, ...input }),
    });
  return {
    tether,
    store,
    post,
    run: async (input, user) => parseSseFrames(await (await post(input, user)).text()).map((frame) => frame.data as BaseEvent),
    cancel: async (runId) =>
      tether.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: { "content-type": "application/json", "x-user": "kim" }, body: "{}" }),
  };
}

/** The interrupts a run ended with. */
export function interruptsOf(events: BaseEvent[]): Array<{ id: string; toolCallId: string; message: string; metadata: { tether: { arguments: unknown } } }> {
  const finished = events.findLast((event) => event.type === "RUN_FINISHED") as { outcome?: { type: string; interrupts?: never[] } } | undefined;
  return finished?.outcome?.interrupts ?? [];
}
