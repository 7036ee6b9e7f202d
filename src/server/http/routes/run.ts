import { Hono } from "hono";
import { readTetherProps, TetherError } from "../../../protocol/index.ts";
import type { RunHub } from "../../hub/index.ts";
import type { Runner } from "../../run/index.ts";
import { eventsFor, readCompat } from "../compat.ts";
import { eventStreamResponse, STREAM_CLOSED } from "../event-stream.ts";
import { clientHungUp } from "../node-request.ts";
import type { AuthEnv } from "../middleware/auth.ts";
import type { Logger } from "../logger.ts";
import { readRunInput } from "../read-run-input.ts";

/** `POST /agents/:agentId/run`: a standard RunAgentInput in, the run's AG-UI events out (`?compat=ag-ui-0.0` for 0.0.x clients). */
export function runAgentRoutes(runner: Runner, hub: RunHub, logger: Logger) {
  return new Hono<AuthEnv>().post("/agents/:agentId/run", async (c) => {
    const compat = readCompat(c);
    const input = await readRunInput(c);
    // Nobody to stream to, and the client never learnt of the run: it is not started.
    if (await clientHungUp(c)) {
      logger.info(`Run ${input.runId} of thread ${input.threadId} was not started: its client hung up while the request waited.`);
      throw new TetherError("client_gone", "The client hung up before its run could start; the run was not started.");
    }
    const { runId, repeat } = await runner.start(c.var.user, c.req.param("agentId"), input);
    // By default the run outlives its client, which can reconnect; a client may ask for the opposite.
    const { cancelOnDisconnect } = readTetherProps(input.forwardedProps);
    const stop = new AbortController();
    async function* events() {
      for await (const batch of hub.follow(runId, 0, stop.signal)) yield { runId, events: batch };
    }
    return eventStreamResponse(c, eventsFor(compat, events()), {
      logger,
      onClose(clientGone) {
        stop.abort(STREAM_CLOSED);
        if (clientGone && cancelOnDisconnect && !repeat) runner.cancel(runId);
      },
      // The same result again: a client must not act on it as on a new run (another window may already have).
      ...(repeat ? { headers: { "x-tether-repeat-of": runId } } : {}),
    });
  });
}
