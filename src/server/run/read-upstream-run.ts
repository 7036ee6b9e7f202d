import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { TetherError, isTetherError, toTetherError } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import { upstreamFailure, type UpstreamAgent } from "../upstream/index.ts";

/** What one upstream run is asked with. */
export interface UpstreamRunRequest {
  input: RunAgentInput;
  user: TetherUser;
  signal: AbortSignal;
  /** Told of each event as the upstream sent it, before it is read as 1.0's. */
  onReceived?(event: BaseEvent): void;
}

export type Consumed = { kind: "finished" } | { kind: "aborted" } | { kind: "failed"; error: TetherError };

/**
 * Reads the upstream run until `handle` says it is done, bounded by the
 * first-event, idle and run timeouts; a stream that ends before a RUN_FINISHED or
 * RUN_ERROR, or that fails, is the upstream's failure.
 */
export function readUpstreamRun(upstream: UpstreamAgent, options: UpstreamRunRequest, handle: (event: BaseEvent) => "more" | "done"): Promise<Consumed> {
  return new Promise<Consumed>((resolve) => {
    const controller = new AbortController();
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let sawEvent = false;
    let deadline: NodeJS.Timeout | undefined;
    const settle = (outcome: Consumed) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(deadline);
      options.signal.removeEventListener("abort", onAbort);
      subscription?.unsubscribe();
      controller.abort();
      resolve(outcome);
    };
    const arm = () => {
      clearTimeout(timer);
      const ms = sawEvent ? upstream.idleTimeoutMs : upstream.firstEventTimeoutMs;
      const what = sawEvent ? `went quiet for ${ms} ms mid-run` : `sent no event within ${ms} ms`;
      timer = setTimeout(
        () => settle({ kind: "failed", error: new TetherError("upstream_unavailable", `The upstream agent ${what}, so the run was stopped.`) }),
        ms,
      );
    };
    const onAbort = () => settle({ kind: "aborted" });
    if (options.signal.aborted) return resolve({ kind: "aborted" });
    options.signal.addEventListener("abort", onAbort, { once: true });
    // The upstream request is stopped by the run's cancel and by this step ending (a timeout, a RUN_ERROR).
    const stop = AbortSignal.any([options.signal, controller.signal]);
    arm();
    // However lively, an upstream run is bounded: events that trickle in for ever would hold the run (and its lease) for ever.
    deadline = setTimeout(
      () =>
        settle({
          kind: "failed",
          error: new TetherError("upstream_unavailable", `The upstream agent's run took longer than ${upstream.runTimeoutMs} ms, so the run was stopped.`),
        }),
      upstream.runTimeoutMs,
    );
    let subscription: { unsubscribe(): void } | undefined;
    let events: ReturnType<UpstreamAgent["run"]>;
    try {
      events = upstream.run(options.input, stop, options.user, options.onReceived);
    } catch (error) {
      // The app's `headers(user)`, or an agent's run(), threw before anything was sent.
      return settle({ kind: "failed", error: upstreamFailure("upstream_unavailable", "could not be asked", (error as Error)?.message) });
    }
    subscription = events.subscribe({
      next(event) {
        if (settled) return;
        sawEvent = true;
        arm();
        try {
          if (handle(event) === "done") settle({ kind: "finished" });
        } catch (error) {
          settle({ kind: "failed", error: upstreamFailure("upstream_error", "sent an event Tether could not read", toTetherError(error).message) });
        }
      },
      error(error: unknown) {
        if (options.signal.aborted) return settle({ kind: "aborted" });
        // The upstream's own failures come in Tether's words already (upstream/upstream-agent.ts).
        if (isTetherError(error)) return settle({ kind: "failed", error });
        const message = error instanceof Error ? error.message : String(error);
        settle({
          kind: "failed",
          error: sawEvent
            ? upstreamFailure("upstream_error", "broke off its stream", message)
            : upstreamFailure("upstream_unavailable", "could not be reached", message),
        });
      },
      complete() {
        settle({ kind: "failed", error: new TetherError("upstream_error", "The upstream agent ended its stream without finishing the run.") });
      },
    });
    if (settled) subscription.unsubscribe();
  });
}
