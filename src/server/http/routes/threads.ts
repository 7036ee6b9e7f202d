import { Hono } from "hono";
import { TetherError } from "../../../protocol/index.ts";
import { type RunHub, isRunLive } from "../../hub/index.ts";
import type { StoredRun, RunStore } from "../../store/index.ts";
import { eventsFor, readCompat } from "../compat.ts";
import { eventStreamResponse, STREAM_CLOSED } from "../event-stream.ts";
import { parseLastEventId } from "../last-event-id.ts";
import type { Logger } from "../logger.ts";
import type { AuthEnv } from "../middleware/auth.ts";
import { ownedThread, readableThread, type CanReadRecord } from "../owned.ts";
import { threadRunChain } from "../../record/index.ts";

export function threadRoutes(
  store: RunStore,
  hub: RunHub,
  logger: Logger,
  options: {
    canReadRecord?: CanReadRecord;
    /** A new thread's state for this agent (its declared `initial`): what a thread that stored none holds. */
    initialState?: (agentId: string) => Record<string, unknown> | undefined;
  } = {},
) {
  const routes = new Hono<AuthEnv>()
    /** The thread's chain of runs (`ThreadRunChain`): what started each, and the links between them. */
    .get("/threads/:threadId/runs", async (c) => {
      const thread = await readableThread(store, c.req.param("threadId"), c.var.user, options.canReadRecord);
      return c.json(await threadRunChain({ store, isLive: (runId) => isRunLive(hub, runId) }, thread));
    })
    .get("/threads/:threadId", async (c) => {
      const thread = await ownedThread(store, c.req.param("threadId"), c.var.user);
      const [pending, interrupts, runs] = await Promise.all([
        store.getPendingToolCalls(thread.threadId),
        store.getPendingInterrupts(thread.threadId),
        store.listRuns(thread.threadId),
      ]);
      // A run whose end this process holds, waiting for the store, has ended: it is not the thread's active run.
      const active = runs.find((run) => run.status === "running" && !hub.isEnding(run.runId));
      // While a run is going, its messages come from its events (GET …/events), not from here.
      const messages = await store.getMessages(thread.threadId, active ? { excludeRunId: active.runId } : {});
      return c.json({
        threadId: thread.threadId,
        agentId: thread.agentId,
        createdAt: thread.createdAt,
        updatedAt: thread.updatedAt,
        messages,
        // The last committed step's (a running run's too: its replay starts with the snapshot it started from).
        state: thread.state ?? options.initialState?.(thread.agentId) ?? {},
        pendingToolCalls: pending,
        pendingInterrupts: interrupts.map((stored) => stored.interrupt),
        /** Set while a run is going: `messages` stop before it; replay its events to see the rest. */
        activeRun: active ? { runId: active.runId } : null,
        runs: runs.map(summarizeRun),
      });
    })
    /**
     * Attaches to the thread's runs. With `Last-Event-ID: <runId>:<seq>` it
     * replays exactly the events after that one (the rest of that run, then any
     * later run of the thread) and then follows the live one; without it, it
     * follows the active run, or replays the last one if it already ended.
     * Whatever id a client holds, the stream ends with a RUN_FINISHED or
     * RUN_ERROR: a client that already had the last one gets it again.
     */
    .get("/threads/:threadId/events", async (c) => {
      const compat = readCompat(c);
      const thread = await ownedThread(store, c.req.param("threadId"), c.var.user);
      const runs = await store.listRuns(thread.threadId);
      const lastEventId = c.req.header("last-event-id") ?? c.req.query("lastEventId");
      let start = runs.length - 1;
      let afterSeq = 0;
      if (lastEventId) {
        const named = parseLastEventId(lastEventId);
        start = runs.findIndex((run) => run.runId === named.runId);
        if (start === -1) throw new TetherError("invalid_last_event_id", `Last-Event-ID "${lastEventId.slice(0, 80)}" names no run of this thread.`);
        afterSeq = await resumePoint(runs[start]!, named.seq, start === runs.length - 1);
      } else {
        const active = runs.findIndex((run) => run.status === "running");
        if (active !== -1) start = active;
      }
      const stop = new AbortController();
      async function* events() {
        for (const [index, run] of runs.entries()) {
          if (index < start || start === -1) continue;
          for await (const batch of hub.follow(run.runId, index === start ? afterSeq : 0, stop.signal)) yield { runId: run.runId, events: batch };
        }
      }
      return eventStreamResponse(c, eventsFor(compat, events()), { logger, onClose: () => stop.abort(STREAM_CLOSED) });
    });
  return routes;

  /**
   * Where to resume a run for a client that holds its event `seq`. An id past
   * the run's end was never sent: refused. The end itself, when nothing
   * follows it, is sent again, so the stream still ends with it.
   */
  async function resumePoint(run: StoredRun, seq: number, isLastRun: boolean): Promise<number> {
    // The stream's instance (maybe another one) knows events the store does not have yet.
    const tail = await hub.tail(run.runId);
    const last = tail?.lastSeq ?? (await store.getLastEvent(run.runId))?.seq ?? 0;
    if (seq > last) {
      throw new TetherError("invalid_last_event_id", `Last-Event-ID ${run.runId}:${seq} was never sent: run ${run.runId} has events up to ${last}.`);
    }
    // No instance's word on the stream (the run ended, or the bus is down): the store says whether it ended.
    const ended = tail ? !tail.live : run.status !== "running";
    return ended && isLastRun && seq === last ? seq - 1 : seq;
  }
}

function summarizeRun(run: StoredRun) {
  return {
    runId: run.runId,
    status: run.status,
    ...(run.parentRunId ? { parentRunId: run.parentRunId } : {}),
    ...(run.trigger ? { trigger: run.trigger } : {}),
    ...(run.outcome ? { outcome: run.outcome } : {}),
    ...(run.error ? { error: run.error } : {}),
    createdAt: run.createdAt,
    ...(run.finishedAt ? { finishedAt: run.finishedAt } : {}),
  };
}
