import { CompatibilityBoundary, enforceOutgoingInput, transformChunks, transformHttpEventStream, type AbstractAgent } from "@ag-ui/client";
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { catchError, defer, from, tap, throwError, type Observable, type ObservableInput } from "rxjs";
import { TetherError, isTetherError } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import { DEFAULT_UPSTREAM_LIMITS, checkUpstreamEvents, type UpstreamLimits } from "./check-events.ts";
import { fetchUpstream } from "./fetch-upstream.ts";
import { readHttpEvents } from "./read-http-events.ts";
import { upstreamFailure } from "./upstream-failure.ts";

/**
 * An AG-UI agent Tether does not run, put in front of with `defineAgent({ upstream })`:
 * its HTTP endpoint, or any object with `@ag-ui/client`'s `AbstractAgent` shape
 * (`new HttpAgent(…)`, a framework's adapter), whichever copy of the client made it.
 */
export type UpstreamAgentOption = UpstreamEndpoint | RunnableAgent;

export interface UpstreamEndpoint {
  /** Where the agent takes `POST RunAgentInput` and answers with AG-UI events (SSE). */
  url: string;
  /**
   * Sent with every request: the upstream's own credentials, and, as a function of the signed-in
   * user, who is asking (a token the upstream trusts), so its tools can keep to that user's rights.
   */
  headers?: Record<string, string> | ((user: TetherUser) => Record<string, string>);
  /** How long the upstream may take to send its first event. Default 30 s. */
  firstEventTimeoutMs?: number;
  /** How long it may go quiet between two events; SSE comments (keep-alives) do not count as events. Default 120 s. */
  idleTimeoutMs?: number;
  /** How long one upstream run (one step of Tether's run) may take in all, however lively. Default 15 min. */
  runTimeoutMs?: number;
  /** Caps on what one upstream run may send (text, tool-call arguments, events, one event's bytes); see `UpstreamLimits`. */
  limits?: Partial<UpstreamLimits>;
}

/** What Tether needs of an `AbstractAgent`: `run` (and `clone`, `abortRun` where it has them). */
export interface RunnableAgent {
  run(input: RunAgentInput): unknown;
  clone?(): RunnableAgent;
  abortRun?(): void;
}

/** The upstream as a run calls it: one upstream run per step, stopped by the run's signal. */
export interface UpstreamAgent {
  /** For the run's record and spans, in place of a model's: `ag-ui` and where the agent is. */
  provider: "ag-ui";
  modelId: string;
  firstEventTimeoutMs: number;
  idleTimeoutMs: number;
  runTimeoutMs: number;
  /**
   * Starts one upstream run: its events, 0.0.x ones and chunks already made 1.0's start/content/end.
   * `onReceived` is told each event as the upstream sent it, before those transforms (for the run's record).
   */
  run(input: RunAgentInput, signal: AbortSignal, user: TetherUser, onReceived?: (event: BaseEvent) => void): Observable<BaseEvent>;
}

const FIRST_EVENT_TIMEOUT_MS = 30_000;
const IDLE_TIMEOUT_MS = 120_000;
const RUN_TIMEOUT_MS = 15 * 60_000;

/** Checks the option once, at definition, and makes the upstream a run calls. */
export function toUpstreamAgent(agentId: string, option: UpstreamAgentOption): UpstreamAgent {
  if (isEndpoint(option)) {
    const url = checkUrl(agentId, option.url);
    const limits = checkLimits(agentId, option.limits);
    return {
      provider: "ag-ui",
      modelId: `${url.origin}${url.pathname}`,
      firstEventTimeoutMs: checkPositive(agentId, "firstEventTimeoutMs", option.firstEventTimeoutMs, FIRST_EVENT_TIMEOUT_MS),
      idleTimeoutMs: checkPositive(agentId, "idleTimeoutMs", option.idleTimeoutMs, IDLE_TIMEOUT_MS),
      runTimeoutMs: checkPositive(agentId, "runTimeoutMs", option.runTimeoutMs, RUN_TIMEOUT_MS),
      run: (input, signal, user, onReceived) => {
        const headers = typeof option.headers === "function" ? option.headers(user) : (option.headers ?? {});
        return normalised(endpointAgent(url, headers, signal, limits), input, limits, "endpoint", onReceived);
      },
    };
  }
  if (typeof (option as { run?: unknown } | null)?.run !== "function") {
    throw new TetherError(
      "config_invalid",
      `Agent "${agentId}" has an upstream that is neither { url } nor an AG-UI agent with run(input) (such as new HttpAgent({ url }) from @ag-ui/client).`,
    );
  }
  return {
    provider: "ag-ui",
    modelId: option.constructor?.name && option.constructor.name !== "Object" ? option.constructor.name : "agent",
    firstEventTimeoutMs: FIRST_EVENT_TIMEOUT_MS,
    idleTimeoutMs: IDLE_TIMEOUT_MS,
    runTimeoutMs: RUN_TIMEOUT_MS,
    run: (input, signal, _user, onReceived) => {
      // A copy per run: an AbstractAgent keeps one run's state (its abort controller, its messages).
      const agent = option.clone?.() ?? option;
      signal.addEventListener("abort", () => agent.abortRun?.(), { once: true });
      return normalised(agent, input, DEFAULT_UPSTREAM_LIMITS, "agent", onReceived);
    },
  };
}

/**
 * The agent's events as AG-UI 1.0 has them: `@ag-ui/client`'s own boundary turns 0.0.x
 * (THINKING_*, legacy content) into 1.0, they are checked (`checkUpstreamEvents`), and the
 * client's chunk transform opens and closes the messages and calls that arrive as
 * TEXT_MESSAGE_CHUNK / TOOL_CALL_CHUNK. Whatever fails on the way fails as a TetherError.
 */
function normalised(
  agent: RunnableAgent,
  input: RunAgentInput,
  limits: UpstreamLimits,
  kind: "endpoint" | "agent",
  onReceived?: (event: BaseEvent) => void,
): Observable<BaseEvent> {
  // Watched as received, when someone asks (records on); otherwise the agent as it is, at no cost.
  const source: RunnableAgent = onReceived ? { run: (sent) => from(agent.run(sent) as ObservableInput<BaseEvent>).pipe(tap(onReceived)) } : agent;
  return defer(() => {
    let seen = false;
    const events = new CompatibilityBoundary().run(input, source as AbstractAgent);
    return from(events).pipe(
      tap(() => (seen = true)),
      checkUpstreamEvents(limits),
      transformChunks(false),
      catchError((error: unknown) => throwError(() => asUpstreamError(error, kind === "endpoint" || seen))),
    );
  });
}

/**
 * An upstream run's failure as a TetherError. An endpoint's request and reads fail as TetherErrors
 * already (fetchUpstream, readHttpEvents): anything else there is the parsers' or transforms' refusal
 * of what it sent. An agent's own failures are its transport's too: a failure before any event is
 * taken for one of reaching it.
 */
function asUpstreamError(error: unknown, reached: boolean): TetherError {
  if (isTetherError(error)) return error;
  // The JSON parser's message quotes the data, which may hold a key cut short of being recognisable.
  if (error instanceof SyntaxError) return new TetherError("upstream_error", "The upstream agent sent something Tether could not read: data that is not JSON.");
  const message = error instanceof Error ? error.message : String(error);
  return reached || /^(Invalid event|Failed to decode|SSE buffer|Protobuf message)/.test(message)
    ? upstreamFailure("upstream_error", "sent something Tether could not read", message)
    : upstreamFailure("upstream_unavailable", "could not be reached", message);
}

/**
 * What `@ag-ui/client`'s HttpAgent does for one run (the same request, the
 * same parsers for SSE and protobuf), with the response read by
 * `readHttpEvents`, which survives an upstream that dies mid-stream. The
 * request carries the run's signal: a cancel aborts it.
 */
function endpointAgent(url: URL, headers: Record<string, string>, signal: AbortSignal, limits: UpstreamLimits): RunnableAgent {
  return {
    run: (input) =>
      transformHttpEventStream(
        readHttpEvents(
          () =>
            fetchUpstream(url, {
              method: "POST",
              headers: { ...headers, "Content-Type": "application/json", Accept: "text/event-stream" },
              body: JSON.stringify(enforceOutgoingInput(input)),
              signal,
            }),
          limits,
        ),
      ),
  };
}

function isEndpoint(option: UpstreamAgentOption): option is UpstreamEndpoint {
  return typeof (option as { url?: unknown }).url === "string" && typeof (option as { run?: unknown }).run !== "function";
}

function checkUrl(agentId: string, value: string): URL {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new TetherError("config_invalid", `Agent "${agentId}" has an upstream url that is not an http(s) URL: ${JSON.stringify(value)}.`);
  }
  return url;
}

function checkPositive(agentId: string, name: string, value: number | undefined, fallback: number, unit = "ms"): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new TetherError("config_invalid", `Agent "${agentId}": upstream.${name} must be a positive integer (${unit}), got ${value}.`);
  return value;
}

function checkLimits(agentId: string, limits: Partial<UpstreamLimits> = {}): UpstreamLimits {
  return {
    maxTextChars: checkPositive(agentId, "limits.maxTextChars", limits.maxTextChars, DEFAULT_UPSTREAM_LIMITS.maxTextChars, "characters"),
    maxArgumentChars: checkPositive(agentId, "limits.maxArgumentChars", limits.maxArgumentChars, DEFAULT_UPSTREAM_LIMITS.maxArgumentChars, "characters"),
    maxEvents: checkPositive(agentId, "limits.maxEvents", limits.maxEvents, DEFAULT_UPSTREAM_LIMITS.maxEvents, "events"),
    maxEventBytes: checkPositive(agentId, "limits.maxEventBytes", limits.maxEventBytes, DEFAULT_UPSTREAM_LIMITS.maxEventBytes, "bytes"),
  };
}
