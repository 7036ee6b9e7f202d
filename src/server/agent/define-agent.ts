import type { LanguageModelV3 } from "@ai-sdk/provider";
import { toLanguageModelV3, type LanguageModelV4 } from "../models/index.ts";
import {
  AgentWelcomeSchema,
  TetherError,
  createArgumentChecker,
  formatIssues,
  isValidId,
  type AgentWelcome,
  type ArgumentChecker,
  type BrowserToolSpec,
} from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import { assertToolName, toNamedApprovals, type ApprovalByName, type RunToolApproval, type ServerTool } from "../tools/index.ts";
import type { HistoryMode } from "../history/index.ts";
import { toUpstreamAgent, type UpstreamAgent, type UpstreamAgentOption } from "../upstream/index.ts";
import { DEFAULT_RETRY, type RetryPolicy } from "./retry-policy.ts";
import { renderA2uiTool, DEFAULT_MAX_ATTEMPTS } from "../genui/surfaces/index.ts";
import type { StepEngine } from "./step-engine.ts";
import { checkPredictedState, compileAgentState, type PredictedState, type AgentStateConfig, type AgentStateOption } from "../state/index.ts";

/**
 * `strict`: a declared browser tool off the allow-list, or with a different
 * schema, fails the run before it starts. `drop`: such tools are left out of
 * the model's tool set and the run's log says why.
 */
export type BrowserToolPolicy = "strict" | "drop";

export interface AgentDefinition<User extends TetherUser = TetherUser> {
  id: string;
  description?: string;
  /** Any AI SDK language model: AI SDK 6's providers (specification v3) or AI SDK 7's (v4). Or an `upstream`. */
  model?: LanguageModelV3 | LanguageModelV4;
  /**
   * An AG-UI agent Tether runs in front of, in place of a model and instructions: its endpoint
   * (`{ url, headers? }`) or an `AbstractAgent` (`new HttpAgent(…)`, a framework's adapter). Tether
   * checks the client's tools against `browserTools`, offers the upstream those and `tools`, runs
   * browser calls once, stores and streams the run as its own (`docs/guide.md#an-agent-you-already-run`).
   */
  upstream?: UpstreamAgentOption;
  /**
   * An agent another framework runs in process, in place of a model and instructions: made by an
   * adapter (`defineAdkAgent` in `@tether-agent/tether/adk`), not written by hand.
   */
  stepEngine?: StepEngine;
  /** Who the agent is; per user when it depends on them. */
  instructions?: string | ((user: User) => string);
  tools?: ServerTool<any, User>[];
  /** The allow-list: browser tools this agent accepts, with the schema each must match. */
  browserTools?: BrowserToolSpec[];
  browserToolPolicy?: BrowserToolPolicy;
  /**
   * With an `upstream` (or a `stepEngine`): the calls a person approves before they go on, by tool name. The upstream's
   * own tools it leaves for its client to answer (Tether asks, then sends the person's answer back as
   * the call's result) and allow-listed browser tools (asked, then sent to the browser). `true` for
   * every call, a predicate on the call's arguments, or `{ when?, message? }` to word the question.
   * Tether's own server tools say it on the tool (`needsApproval`).
   */
  approvals?: Record<string, ApprovalByName<User>>;
  history?: HistoryMode;
  /** Model steps a run may take before it ends with `step_limit_exceeded`. Default 8. */
  maxSteps?: number;
  /** How a model call the provider refused with a retryable error is tried again. */
  retry?: Partial<RetryPolicy>;
  /** How long a person has to answer an approval before it lapses. Default 15 minutes. */
  approvalTimeoutMs?: number;
  /**
   * Who may use the agent, when an app serves several kinds of user (its
   * tools then only meet the kind they were written for). Default: everyone
   * signed in.
   */
  allowUser?: (user: TetherUser) => boolean;
  /**
   * Generated UI: the model may show A2UI v0.9 surfaces with `render_a2ui`.
   * Each is validated against the client's catalog before any client sees it,
   * and the model gets the errors and tries again, `maxAttempts` times in all (default 3).
   */
  generatedUi?: boolean | { maxAttempts?: number };
  /**
   * A greeting and up to six suggested messages the panel shows before the
   * first message (per user when they depend on them); published in the
   * agent's capabilities as `custom.welcome`.
   */
  welcome?: AgentWelcome | ((user: User) => AgentWelcome);
  /**
   * The thread's shared state (AG-UI `state`): its schema, a new thread's
   * initial value and how the model sees it (`defineState` types it). Without
   * it the agent takes any JSON object as state. See the guide's "Shared state".
   */
  state?: AgentStateOption<any>;
  /**
   * Predictive state: while the model streams a call to `tool`, its `argument`
   * is shown as the state's `stateKey` (CopilotKit's `PredictState`), so the
   * page shows a document growing before the call ends; the tool's own change
   * replaces it, and a step's end takes back what no change confirmed.
   */
  predictState?: PredictedState[];
}

/** An agent as the runtime holds it; `User` is the app's user type its tools and instructions take. */
export interface Agent<User extends TetherUser = any> {
  id: string;
  description: string;
  /** What answers: a model Tether runs, an upstream AG-UI agent, or an engine run in process (exactly one). */
  model?: LanguageModelV3;
  upstream?: UpstreamAgent;
  stepEngine?: StepEngine;
  /** Which of them, as the record, spans and capabilities name it. */
  engine: { provider: string; modelId: string };
  instructions(user: User): string;
  tools: ServerTool<any, User>[];
  browserTools: BrowserToolSpec[];
  browserToolPolicy: BrowserToolPolicy;
  /** An upstream agent's approvals by tool name (empty for an agent Tether runs). */
  approvals: ReadonlyMap<string, RunToolApproval>;
  history: HistoryMode;
  maxSteps: number;
  retry: RetryPolicy;
  approvalTimeoutMs: number;
  allowUser(user: TetherUser): boolean;
  /** Set when the agent shows generated surfaces (`render_a2ui` is among its tools). */
  generatedUi?: { maxAttempts: number };
  /** Checks calls against this agent's tool schemas, compiled once at definition. */
  checker: ArgumentChecker;
  /** What the agent offers this user before the first message; undefined when it offers nothing. */
  welcome(user: User): AgentWelcome | undefined;
  /** The shared state it declares, compiled; absent: any JSON object. */
  state?: AgentStateConfig;
  /** The calls whose streamed arguments it shows as state (empty for most agents). */
  predictState: readonly PredictedState[];
}

/** Checks an agent's configuration once, at start-up, so runs never meet a broken one. */
export function defineAgent<User extends TetherUser = TetherUser>(definition: AgentDefinition<User>): Agent<User> {
  if (!isValidId(definition.id)) throw new TetherError("config_invalid", `Agent id "${definition.id}" is not a valid id.`);
  const source = agentSource(definition);
  const generatedUi = definition.generatedUi
    ? { maxAttempts: (definition.generatedUi === true ? undefined : definition.generatedUi.maxAttempts) ?? DEFAULT_MAX_ATTEMPTS }
    : undefined;
  if (generatedUi && (!Number.isInteger(generatedUi.maxAttempts) || generatedUi.maxAttempts < 1)) {
    throw new TetherError("config_invalid", `generatedUi.maxAttempts must be a positive integer, got ${generatedUi.maxAttempts}.`);
  }
  const tools = [...(definition.tools ?? []), ...(generatedUi ? [renderA2uiTool()] : [])];
  const browserTools = definition.browserTools ?? [];
  const seen = new Set<string>();
  const checker = createArgumentChecker();
  for (const tool of [...tools, ...browserTools]) {
    assertToolName(tool.name);
    if (seen.has(tool.name)) {
      throw new TetherError(
        "config_invalid",
        `Agent "${definition.id}" declares the tool "${tool.name}" twice (server and browser tools share one namespace).`,
      );
    }
    seen.add(tool.name);
    checker.compile(tool.parameters, `tool "${tool.name}" of agent "${definition.id}"`);
  }
  const approvals = namedApprovals(definition, tools);
  const state = definition.state === undefined ? undefined : compileAgentState(definition.id, definition.state, checker);
  const predictState = checkPredictedState(definition.id, definition.predictState, seen, "model" in source);
  const maxSteps = definition.maxSteps ?? 8;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new TetherError("config_invalid", `maxSteps must be a positive integer, got ${maxSteps}.`);
  const instructions = definition.instructions ?? "";
  const welcome = definition.welcome;
  if (welcome && typeof welcome !== "function") assertWelcome(definition.id, welcome);
  return {
    id: definition.id,
    description: definition.description ?? "",
    ...source,
    engine: engineOf(source),
    instructions: typeof instructions === "function" ? instructions : () => instructions,
    tools,
    browserTools,
    browserToolPolicy: definition.browserToolPolicy ?? "strict",
    approvals,
    history: definition.history ?? "server",
    maxSteps,
    retry: { ...DEFAULT_RETRY, ...definition.retry },
    approvalTimeoutMs: definition.approvalTimeoutMs ?? 15 * 60 * 1000,
    allowUser: definition.allowUser ?? (() => true),
    // A welcome that depends on the user is checked as it is made: a malformed one is left out, never sent.
    welcome: typeof welcome === "function" ? (user) => AgentWelcomeSchema.safeParse(welcome(user)).data : () => welcome,
    ...(generatedUi ? { generatedUi } : {}),
    ...(state ? { state } : {}),
    predictState,
    checker,
  };
}

type AgentSource = { model: LanguageModelV3 } | { upstream: UpstreamAgent } | { stepEngine: StepEngine };

/** The agent's model, its upstream or its engine: exactly one, and the other two with nothing a model alone would use. */
function agentSource(definition: AgentDefinition<any>): AgentSource {
  if (definition.upstream === undefined && definition.stepEngine === undefined) {
    assertModel(definition.id, definition.model);
    return { model: toLanguageModelV3(definition.model as LanguageModelV3 | LanguageModelV4) };
  }
  const [what, other] = definition.upstream !== undefined ? (["an upstream agent", "stepEngine"] as const) : (["a step engine", "upstream"] as const);
  const alsoGiven = (["model", "instructions", "generatedUi", other] as const).filter((key) => definition[key] !== undefined && definition[key] !== false);
  if (alsoGiven.length > 0) {
    throw new TetherError(
      "config_invalid",
      `Agent "${definition.id}" has ${what} and also ${alsoGiven.join(", ")}: it has its own model and instructions, so give one or the other.`,
    );
  }
  if (definition.stepEngine !== undefined) return { stepEngine: definition.stepEngine };
  return { upstream: toUpstreamAgent(definition.id, definition.upstream!) };
}

function engineOf(source: AgentSource): { provider: string; modelId: string } {
  if ("model" in source) return { provider: source.model.provider, modelId: source.model.modelId };
  if ("upstream" in source) return { provider: "ag-ui", modelId: source.upstream.modelId };
  return { provider: source.stepEngine.provider, modelId: source.stepEngine.modelId };
}

/** An upstream agent's approvals by name, for names that are not its server tools (those say it on the tool). */
function namedApprovals(definition: AgentDefinition<any>, tools: ServerTool<any, any>[]): Map<string, RunToolApproval> {
  const names = Object.keys(definition.approvals ?? {});
  if (names.length > 0 && definition.upstream === undefined && definition.stepEngine === undefined) {
    throw new TetherError(
      "config_invalid",
      `Agent "${definition.id}" has approvals by name, which are for an upstream agent's tools: mark its own tools with needsApproval instead.`,
    );
  }
  for (const name of names) {
    assertToolName(name);
    if (tools.some((tool) => tool.name === name)) {
      throw new TetherError(
        "config_invalid",
        `Agent "${definition.id}": "${name}" is its own server tool; say on the tool that it needs approval (needsApproval).`,
      );
    }
  }
  return toNamedApprovals(definition.id, definition.approvals);
}

/**
 * A missing model would start fine and fail every run ("Cannot read
 * properties of undefined"): refused here, naming what to give. Usually it
 * is a model read from the environment with the variable unset; only the
 * demo server reads TETHER_MODEL, so the message says so.
 */
function assertModel(agentId: string, model: unknown): void {
  const spec = (model as { specificationVersion?: unknown } | null | undefined)?.specificationVersion;
  if (typeof (model as { doStream?: unknown } | null | undefined)?.doStream === "function") {
    if (spec === "v3" || spec === "v4") return;
    // AI SDK 5's models (v2) and older stream other parts: they would run, and lose usage and finish reasons.
    throw new TetherError(
      "config_invalid",
      `Agent "${agentId}" has a model of specification ${JSON.stringify(spec ?? "unknown")}, which Tether does not take: use a provider package of AI SDK 6 or 7 (@ai-sdk/openai 3 or 4, @ai-sdk/anthropic 3 or 4, @ai-sdk/google 3 or 4, @ai-sdk/openai-compatible 2 or 3).`,
    );
  }
  const got = model === undefined ? "no model" : model === null ? "null" : `a ${typeof model} that is not a language model`;
  throw new TetherError(
    "config_invalid",
    `Agent "${agentId}" has ${got}: give it an AI SDK language model, such as openai("gpt-4o-mini") from @ai-sdk/openai (a model's name is not one). The demo server (npm start) makes it from TETHER_MODEL: set it, for example TETHER_MODEL=openai:gpt-4o-mini.`,
  );
}

function assertWelcome(agentId: string, welcome: AgentWelcome): void {
  const parsed = AgentWelcomeSchema.safeParse(welcome);
  if (!parsed.success) throw new TetherError("config_invalid", `Agent "${agentId}" has a malformed welcome: ${formatIssues(parsed.error.issues)}.`);
}
