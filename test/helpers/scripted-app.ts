import type { RunAgentInput } from "@ag-ui/core";
import { defineBrowserTool, type BrowserToolSpec } from "@tether-agent/tether/protocol";
import { createCountingIds } from "@tether-agent/tether/testing";
import { createMemoryRunStore, type RunStore } from "@tether-agent/tether/store";
import {
  createTetherApp,
  defineAgent,
  silentLogger,
  type AgentDefinition,
  type ServerTool,
  type TetherApp,
  type TetherAppOptions,
} from "@tether-agent/tether/server";
import type { ApiOptions } from "@tether-agent/tether/server";
import type { TestUser } from "../fixtures/messages.ts";
import { createScriptedModel, parseSseFrames, type ScriptedModel, type ScriptedStep, type SseFrame } from "@tether-agent/tether/testing";

export const KIM: TestUser = { id: "kim", orgScope: "ORG-01", roles: ["requester"] };

export const openPanel = defineBrowserTool({
  name: "openPanel",
  description: "Opens a panel in the browser.",
  parameters: { type: "object", properties: { panel: { type: "string" } }, required: ["panel"], additionalProperties: false },
});

export interface ScriptedApp {
  tether: TetherApp<TestUser>;
  model: ScriptedModel;
  store: RunStore;
  /** POSTs a run as `user` (kim by default) and returns the response. */
  post(input: Partial<RunAgentInput> & Pick<RunAgentInput, "threadId" | "runId">, user?: string): Promise<Response>;
  /** POSTs a run and reads every SSE frame of it. */
  run(input: Partial<RunAgentInput> & Pick<RunAgentInput, "threadId" | "runId">): Promise<SseFrame[]>;
}

/** A Tether app in-process with one agent ("test") on a scripted model, a memory store and counting ids. */
export async function createScriptedApp(
  steps: ScriptedStep[],
  options: {
    tools?: ServerTool[];
    browserTools?: BrowserToolSpec[];
    agent?: Partial<AgentDefinition>;
    chunkDelayMs?: number;
    store?: RunStore;
    secret?: string;
    api?: ApiOptions;
    /** OpenTelemetry, record facts and the logger, as createTetherApp takes them. */
    app?: Pick<TetherAppOptions, "telemetry" | "records" | "logger">;
  } = {},
): Promise<ScriptedApp> {
  const model = createScriptedModel(steps, { chunkDelayMs: options.chunkDelayMs ?? 0 });
  const store = options.store ?? createMemoryRunStore();
  const users: Record<string, TestUser> = { kim: KIM, lee: { id: "lee", orgScope: "ORG-01", roles: ["manager"] } };
  const tether = await createTetherApp({
    agents: [defineAgent({ id: "test", model, tools: options.tools ?? [], browserTools: options.browserTools ?? [openPanel], ...options.agent })],
    authenticate: (request) => users[request.headers.get("x-user") ?? ""],
    store,
    logger: silentLogger,
    ids: createCountingIds(),
    ...(options.secret ? { secret: options.secret } : {}),
    ...options.api,
    ...options.app,
  });
  const post: ScriptedApp["post"] = (input, user = "kim") =>
    Promise.resolve(
      tether.app.request("/api/agents/test/run", {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-user": user },
        body: JSON.stringify({ messages: [], tools: [], context: [], ...input }),
      }),
    );
  return {
    tether,
    model,
    store,
    post,
    run: async (input) => parseSseFrames(await (await post(input)).text()),
  };
}

export const types = (frames: SseFrame[]) => frames.map((frame) => frame.data.type as string);
