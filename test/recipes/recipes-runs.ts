import {
  EventType,
  HttpAgent,
  type AgentSubscriber,
  type BaseEvent,
  type RunErrorEvent,
  type RunFinishedEvent,
  type TextMessageContentEvent,
  type ToolCallArgsEvent,
  type ToolCallStartEvent,
} from "@ag-ui/client";
import type { Tool } from "@ag-ui/core";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { recipeToolsFor, type Audience } from "../../apps/recipes/web/src/tool-sets.ts";

/** The server tools of the Recipes agent: the only tools a run may call that its request did not declare. */
export const RECIPES_SERVER_TOOLS = ["searchRecipes", "getRecipe"];

/** The four frontends of the story: who is signed in, on which device, and the tools that hands the agent. */
export interface RecipesClient {
  name: string;
  user: "guest" | "sam" | "vera";
  audience: Audience;
  tools: Tool[];
}

const client = (name: string, user: RecipesClient["user"], audience: Audience): RecipesClient => ({
  name,
  user,
  audience,
  tools: recipeToolsFor(audience).map((spec) => toAgUiTool(spec)),
});

export const GUEST_DESKTOP = client("guest desktop", "guest", { signedIn: false, vegetarian: false, mobile: false });
export const SAM_DESKTOP = client("sam desktop", "sam", { signedIn: true, vegetarian: false, mobile: false });
export const VERA_DESKTOP = client("vera desktop", "vera", { signedIn: true, vegetarian: true, mobile: false });
export const SAM_MOBILE = client("sam mobile", "sam", { signedIn: true, vegetarian: false, mobile: true });
export const RECIPES_CLIENTS = [GUEST_DESKTOP, SAM_DESKTOP, VERA_DESKTOP, SAM_MOBILE];

/** A plain, unmodified AG-UI HttpAgent for the Recipes agent on `url`, signed in with `token`. */
export function recipesAgent(url: string, token: string, threadId: string): HttpAgent {
  return new HttpAgent({ url: `${url}/api/agents/recipes/run`, headers: { Authorization: `Bearer ${token}` }, threadId });
}

/** A tool call of one run, its arguments put together from the deltas and parsed at its end, as a browser does. */
export interface StreamedCall {
  toolCallId: string;
  toolName: string;
  args: unknown;
}

/** What the unmodified HttpAgent saw of one run; it parses, enforces and verifies the stream, and fails the run on an invalid one. */
export interface RecipesRun {
  events: BaseEvent[];
  calls: StreamedCall[];
  /** The assistant's words in this run. */
  text: string;
  finished?: RunFinishedEvent;
  runError?: RunErrorEvent;
  pendingToolCallIds: string[];
  /** The run failed in the client: an invalid stream, a RUN_ERROR, or a refused request. */
  failed?: Error;
}

export async function runRecipes(agent: HttpAgent, tools: Tool[], parameters: NonNullable<Parameters<HttpAgent["runAgent"]>[0]> = {}): Promise<RecipesRun> {
  const run: RecipesRun = { events: [], calls: [], text: "", pendingToolCallIds: [] };
  const args = new Map<string, string>();
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => {
      run.events.push(event);
      if (event.type === EventType.TOOL_CALL_START) {
        const start = event as ToolCallStartEvent;
        run.calls.push({ toolCallId: start.toolCallId, toolName: start.toolCallName, args: undefined });
        args.set(start.toolCallId, "");
      } else if (event.type === EventType.TOOL_CALL_ARGS) {
        const delta = event as ToolCallArgsEvent;
        args.set(delta.toolCallId, (args.get(delta.toolCallId) ?? "") + delta.delta);
      } else if (event.type === EventType.TOOL_CALL_END) {
        const { toolCallId } = event as unknown as { toolCallId: string };
        const call = run.calls.find((candidate) => candidate.toolCallId === toolCallId);
        if (call) call.args = JSON.parse(args.get(toolCallId) || "{}");
      } else if (event.type === EventType.TEXT_MESSAGE_CONTENT) {
        run.text += (event as TextMessageContentEvent).delta;
      }
    },
    onRunFinishedEvent: (params) => {
      run.finished = params.event;
      if (params.outcome === "success") run.pendingToolCallIds = params.pendingToolCallIds;
    },
    onRunErrorEvent: ({ event }) => {
      run.runError = event;
    },
    onRunFailed: ({ error }) => {
      run.failed = error;
    },
  };
  try {
    await agent.runAgent({ tools, ...parameters }, subscriber);
  } catch (error) {
    run.failed ??= error as Error;
  }
  return run;
}

/** The names a run may call: what its request declared, and the agent's server tools. */
export function toolsOutside(run: RecipesRun, tools: Tool[]): string[] {
  const allowed = new Set([...RECIPES_SERVER_TOOLS, ...tools.map((tool) => tool.name)]);
  return run.calls.map((call) => call.toolName).filter((name) => !allowed.has(name));
}

/** The calls of a run to the browser tools, as the browser would execute them. */
export const browserCalls = (run: RecipesRun) => run.calls.filter((call) => !RECIPES_SERVER_TOOLS.includes(call.toolName));
