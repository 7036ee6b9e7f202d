import { Hono } from "hono";
import { z } from "zod";
import { TetherError, ToolOutcomeSchema } from "../../../protocol/index.ts";
import type { RunHub } from "../../run/hub.ts";
import type { Runner } from "../../run/runner.ts";
import type { RunStore } from "../../store/port.ts";
import type { AuthEnv } from "../middleware/auth.ts";
import { checkDepth } from "../check-depth.ts";
import { ownedRun } from "../owned.ts";

/** What a browser may report about a run: a tool's real outcome, or a renderer's failure. */
const ReportSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("tool-outcome"), toolCallId: z.string().min(1).max(128), toolName: z.string().max(64).optional(), outcome: ToolOutcomeSchema }),
  z.object({ kind: z.literal("renderer-error"), surfaceId: z.string().max(128).optional(), message: z.string().max(4000), details: z.unknown().optional() }),
]);

export function runRoutes(store: RunStore, runner: Runner, hub: RunHub) {
  return new Hono<AuthEnv>()
    /**
     * Stops a running run: it ends with outcome `cancelled`. A run the store
     * says is running but no loop here runs is ended at once: one whose end
     * waits for the store gets it stored, one whose process is gone is ended
     * as cancelled, so a cancel always frees the thread.
     */
    .post("/runs/:runId/cancel", async (c) => {
      const run = await ownedRun(store, c.req.param("runId"), c.var.user);
      if (run.status === "running" && runner.cancel(run.runId)) return c.json({ runId: run.runId, status: "cancelling" }, 202);
      if (run.status === "running" && hub.isEnding(run.runId)) {
        await hub.settleThread(run.threadId);
        const ended = await store.getRun(run.runId);
        throw new TetherError("run_not_active", `Run ${run.runId} had already ended (status ${ended?.status}).`);
      }
      if (run.status === "running" && !hub.isLive(run.runId)) {
        const ending = await store.endLostRun(run.runId, { code: "run_cancelled", status: "cancelled", message: "The run was cancelled; the server that ran it had stopped." });
        if (ending) return c.json({ runId: run.runId, status: "cancelled" }, 202);
      }
      const now = await store.getRun(run.runId);
      throw new TetherError("run_not_active", `Run ${run.runId} is not running (status ${now?.status ?? run.status}).`);
    })
    .get("/runs/:runId/record", async (c) => {
      const run = await ownedRun(store, c.req.param("runId"), c.var.user);
      const [events, reports] = await Promise.all([store.readEvents(run.runId), store.listReports(run.runId)]);
      return c.json({ run, events, reports });
    })
    .post("/runs/:runId/reports", async (c) => {
      const run = await ownedRun(store, c.req.param("runId"), c.var.user);
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw new TetherError("invalid_json", "The report is not valid JSON.");
      }
      checkDepth(body, "The report");
      const parsed = ReportSchema.safeParse(body);
      if (!parsed.success) {
        throw new TetherError("invalid_input", `The report is not valid: ${parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}.`);
      }
      await store.addReport(run.runId, parsed.data);
      return c.json({ accepted: true }, 202);
    });
}
