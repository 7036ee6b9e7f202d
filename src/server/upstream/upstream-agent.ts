import { CompatibilityBoundary, enforceOutgoingInput, transformChunks, transformHttpEventStream, type AbstractAgent } from "@ag-ui/client";
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { from, tap, type Observable, type ObservableInput } from "rxjs";
import { TetherError } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import { readHttpEvents } from "./read-http-events.ts";

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
  /** How long it may go quiet between two events. Default 120 s. */
  idleTimeoutMs?: number;
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
  /**
   * Starts one upstream run: its events, 0.0.x ones and chunks already made 1.0's start/content/end.
   * `onReceived` is told each event as the upstream sent it, before those transforms (for the run's record).
   */
  run(input: RunAgentInput, signal: AbortSignal, user: TetherUser, onReceived?: (event: BaseEvent) => void): Observable<BaseEvent>;
}

const FIRST_EVENT_TIMEOUT_MS = 30_000;
const IDLE_TIMEOUT_MS = 120_000;

/** Checks the option once, at definition, and makes the upstream a run calls. */
export function toUpstreamAgent(agentId: string, option: UpstreamAgentOption): UpstreamAgent {
  if (isEndpoint(option)) {
    const url = checkUrl(agentId, option.url);
    return {
      provider: "ag-ui",
      modelId: `${url.origin}${url.pathname}`,
      firstEventTimeoutMs: checkTimeout(agentId, "firstEventTimeoutMs", option.firstEventTimeoutMs, FIRST_EVENT_TIMEOUT_MS),
      idleTimeoutMs: checkTimeout(agentId, "idleTimeoutMs", option.idleTimeoutMs, IDLE_TIMEOUT_MS),
      run: (input, signal, user, onReceived) => {
        const headers = typeof option.headers === "function" ? option.headers(user) : (option.headers ?? {});
        return normalised(endpointAgent(url, headers, signal), input, onReceived);
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
    run: (input, signal, _user, onReceived) => {
      // A copy per run: an AbstractAgent keeps one run's state (its abort controller, its messages).
      const agent = option.clone?.() ?? option;
      signal.addEventListener("abort", () => agent.abortRun?.(), { once: true });
      return normalised(agent, input, onReceived);
    },
  };
}

/**
 * The agent's events as AG-UI 1.0 has them: `@ag-ui/client`'s own boundary turns 0.0.x
 * (THINKING_*, legacy content) into 1.0, and its chunk transform opens and closes the
 * messages and calls that arrive as TEXT_MESSAGE_CHUNK / TOOL_CALL_CHUNK.
 */
function normalised(agent: RunnableAgent, input: RunAgentInput, onReceived?: (event: BaseEvent) => void): Observable<BaseEvent> {
  // Watched as received, when someone asks (records on); otherwise the agent as it is, at no cost.
  const source: RunnableAgent = onReceived ? { run: (sent) => from(agent.run(sent) as ObservableInput<BaseEvent>).pipe(tap(onReceived)) } : agent;
  const events = new CompatibilityBoundary().run(input, source as AbstractAgent);
  return from(events).pipe(transformChunks(false));
}

/**
 * What `@ag-ui/client`'s HttpAgent does for one run (the same request, the
 * same parsers for SSE and protobuf), with the response read by
 * `readHttpEvents`, which survives an upstream that dies mid-stream. The
 * request carries the run's signal: a cancel aborts it.
 */
function endpointAgent(url: URL, headers: Record<string, string>, signal: AbortSignal): RunnableAgent {
  return {
    run: (input) =>
      transformHttpEventStream(
        readHttpEvents(() =>
          fetch(url, {
            method: "POST",
            headers: { ...headers, "Content-Type": "application/json", Accept: "text/event-stream" },
            body: JSON.stringify(enforceOutgoingInput(input)),
            signal,
          }),
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

function checkTimeout(agentId: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new TetherError("config_invalid", `Agent "${agentId}": upstream.${name} must be a positive integer (ms), got ${value}.`);
  return value;
}
