import {
  FunctionMiddleware,
  HttpAgent,
  enforceOutgoingInput,
  type AbstractAgent,
  type HttpAgentConfig,
  type Middleware,
  type MiddlewareFunction,
} from "@ag-ui/client";
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import type { Observable } from "rxjs";
import { TetherError } from "../../protocol/index.ts";
import { eventStream } from "./event-stream.ts";

export interface TetherAgentConfig extends HttpAgentConfig {
  /** The thread's events, `<api>/threads/<threadId>/events`: where a dropped stream resumes. A plain AG-UI server has none. */
  eventsUrl?: string;
  /** Every event id as it arrives. */
  onEventId?(id: string): void;
}

/**
 * `@ag-ui/client`'s HttpAgent, with two things added on the transport: a
 * dropped stream resumes with `Last-Event-ID`, and `connect` attaches to the
 * thread's active run. Requests, parsing checks, verification and message
 * building are the reference client's own. Middleware added with `use` reads
 * the runs this agent follows (`connectAgent`) too, and can tell them from its
 * own by `live`.
 */
export class TetherHttpAgent extends HttpAgent {
  readonly eventsUrl: string | undefined;
  /**
   * Set when the server answered the last run with the events of a run it had
   * already acted on (a repeated approval or outcome): nothing in it is this
   * page's to act on.
   */
  repeatOf: string | undefined;
  private readonly onEventId: ((id: string) => void) | undefined;
  /** The middleware added with `use`, in order: the reference keeps its own list private. */
  private readonly stages: Middleware[] = [];
  /** The events streaming now are of a run this agent only follows (`connectAgent`). */
  private following = false;

  constructor(config: TetherAgentConfig) {
    super(config);
    this.eventsUrl = config.eventsUrl;
    this.onEventId = config.onEventId;
  }

  /**
   * Whether the events streaming now are this page's to act on: those of a run
   * it asked for, unless the server answered with a run it had already acted on
   * (`repeatOf`); never those of a run it only follows.
   */
  get live(): boolean {
    return !this.following && this.repeatOf === undefined;
  }

  override use(...middlewares: Array<Middleware | MiddlewareFunction>): this {
    const stages = middlewares.map((middleware) => (typeof middleware === "function" ? new FunctionMiddleware(middleware) : middleware));
    this.stages.push(...stages);
    return super.use(...stages);
  }

  override run(input: RunAgentInput): Observable<BaseEvent> {
    const init = this.requestInit(enforceOutgoingInput(input));
    this.repeatOf = undefined;
    this.following = false;
    return eventStream({
      open: (signal) => this.openRun(input.runId, init, signal),
      resume: (lastEventId, signal) => this.events(lastEventId, signal),
      ...(this.onEventId ? { onEventId: this.onEventId } : {}),
    });
  }

  protected override connect(input: RunAgentInput): Observable<BaseEvent> {
    this.following = true;
    const followed = eventStream({
      open: (signal) => this.events(undefined, signal),
      resume: (lastEventId, signal) => this.events(lastEventId, signal),
      ...(this.onEventId ? { onEventId: this.onEventId } : {}),
    });
    // The reference runs middleware on `runAgent` only; a followed run goes through the same stages, so one path reads
    // every event. Each stage gets the next as the reference hands it on: something with `run`.
    const source = { run: () => followed, messages: this.messages, state: this.state } as unknown as AbstractAgent;
    return this.stages.reduceRight((next, stage) => ({ run: (given: RunAgentInput) => stage.run(given, next) }) as unknown as AbstractAgent, source).run(input);
  }

  /**
   * Posts the run. A request that got no answer at all (the server died or
   * restarted under it) may or may not have started the run: the run is then
   * asked for by id, from its first event, and posted again only if the
   * server never heard of it, so it starts at most once.
   */
  private async openRun(runId: string, init: RequestInit, signal: AbortSignal): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await this.fetch(this.url, { ...init, signal: anySignal(init.signal, signal) });
        // A proxy's 502/504 while the server restarts, or 503 while its storage is back in a moment: worth another try.
        if (!isPassing(response.status) || !this.eventsUrl || attempt === OPEN_ATTEMPTS) {
          this.repeatOf = response.headers.get("x-tether-repeat-of") ?? undefined;
          return response;
        }
      } catch (error) {
        if (signal.aborted || !this.eventsUrl || attempt === OPEN_ATTEMPTS) throw error;
      }
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** attempt, 4000)));
        try {
          const response = await this.events(`${runId}:0`, signal);
          if (response.ok) return response;
          // 4xx: the server does not know the run (it never arrived); 5xx: ask again, a few times.
          if (response.status < 500) break;
          if (attempt >= OPEN_ATTEMPTS) return response;
        } catch (error) {
          if (signal.aborted || attempt === OPEN_ATTEMPTS) throw error;
        }
        attempt++;
      }
    }
  }

  private events(lastEventId: string | undefined, signal: AbortSignal): Promise<Response> {
    if (!this.eventsUrl) {
      return Promise.reject(new TetherError("run_not_active", "The event stream dropped, and this server offers no way to resume it (no events URL)."));
    }
    const headers: Record<string, string> = { ...this.headers, Accept: "text/event-stream" };
    if (lastEventId) headers["Last-Event-ID"] = lastEventId;
    return this.fetch(this.eventsUrl, { method: "GET", headers, signal: anySignal(this.abortController.signal, signal) });
  }
}

/** Statuses of a server that is restarting or briefly without storage, not of a refusal. */
const isPassing = (status: number) => status === 502 || status === 503 || status === 504;

/** How often a run whose request got no answer is looked for or posted again: about 20 s, long enough for a server to restart. */
const OPEN_ATTEMPTS = 8;

function anySignal(...signals: Array<AbortSignal | null | undefined>): AbortSignal {
  const present = signals.filter((signal): signal is AbortSignal => !!signal);
  return present.length === 1 ? present[0]! : AbortSignal.any(present);
}
