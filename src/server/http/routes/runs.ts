import { Hono } from "hono";
import { z } from "zod";
import { TetherError, ToolOutcomeSchema } from "../../../protocol/index.ts";
import type { RunHub } from "../../hub/index.ts";
import type { Runner } from "../../run/index.ts";
import type { RunStore } from "../../store/index.ts";
import type { AuthEnv } from "../middleware/auth.ts";
import { bodyLimit } from "../middleware/body-limit.ts";
import { ownedRun, readableRun, type CanReadRecord } from "../owned.ts";
import { readJsonBody } from "../read-json-body.ts";
import { DEFAULT_RECORD_PAGE_LIMITS, readRecordQuery, type RecordPageLimits } from "../record-page.ts";
import { assembleRecord, type RecordSources, createRecordInputCache } from "../../record/index.ts";
import { DEFAULT_REPORT_LIMITS, type ReportLimits } from "../report-limits.ts";
import { createReportQuota } from "../report-quota.ts";

/** What a browser may report about a run: a tool's real outcome, or a renderer's failure. */
const ReportSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("tool-outcome"), toolCallId: z.string().min(1).max(128), toolName: z.string().max(64).optional(), outcome: ToolOutcomeSchema }),
  z.object({ kind: z.literal("renderer-error"), surfaceId: z.string().max(128).optional(), message: z.string().max(4000), details: z.unknown().optional() }),
]);

export interface RunRouteOptions {
  reportLimits?: Partial<ReportLimits>;
  recordPage?: Partial<RecordPageLimits>;
  /** Who may read a record of another user's thread (see `TetherAppOptions.canReadRecord`). */
  canReadRecord?: CanReadRecord;
}

/** `POST /runs/:runId/cancel`, `GET /runs/:runId/record` (its events in pages) and `POST /runs/:runId/reports` (within limits). */
export function runRoutes(store: RunStore, runner: Runner, hub: RunHub, records: RecordSources, options: RunRouteOptions = {}) {
  const reportLimits = { ...DEFAULT_REPORT_LIMITS, ...options.reportLimits };
  const recordPage = { ...DEFAULT_RECORD_PAGE_LIMITS, ...options.recordPage };
  const quota = createReportQuota(store, reportLimits);
  // Later pages of a record skip redacting its request again.
  const recordSources: RecordSources = { ...records, recordInputs: records.recordInputs ?? createRecordInputCache() };
  return (
    new Hono<AuthEnv>()
      /**
       * Stops a running run: it ends with outcome `cancelled`. A run the store
       * says is running but no loop here runs is ended at once when its process
       * is gone (as cancelled, so a cancel always frees the thread); one whose
       * end waits for the store here gets it stored; one another live instance
       * runs is asked of it, through the hub (Redis, else the store).
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
          // Ended here when the instance that ran it is gone; asked of it (on the hub's bus, or through the store) when it lives.
          const ending = await store.endLostRun(run.runId, {
            code: "run_cancelled",
            status: "cancelled",
            message: "The run was cancelled; the server that ran it had stopped.",
          });
          if (ending) return c.json({ runId: run.runId, status: "cancelled" }, 202);
          if (await hub.requestCancel?.(run.runId)) return c.json({ runId: run.runId, status: "cancelling" }, 202);
        }
        const now = await store.getRun(run.runId);
        throw new TetherError("run_not_active", `Run ${run.runId} is not running (status ${now?.status ?? run.status}).`);
      })
      /** The run's record (`RunRecordDocument`), for its owner or whoever `canReadRecord` lets read it; `?afterSeq=&limit=` pages its events. */
      .get("/runs/:runId/record", async (c) => {
        const run = await readableRun(store, c.req.param("runId"), c.var.user, options.canReadRecord);
        return c.json(
          await assembleRecord(
            recordSources,
            run,
            readRecordQuery((name) => c.req.query(name), recordPage),
          ),
        );
      })
      .post(
        "/runs/:runId/reports",
        // Refuses an oversized report as it arrives, before it is read whole.
        bodyLimit({
          maxSize: reportLimits.maxReportBytes,
          onError: () => {
            throw new TetherError(
              "report_too_large",
              `A report may have at most ${reportLimits.maxReportBytes} bytes. Send a shorter message or fewer details.`,
            );
          },
        }),
        async (c) => {
          const run = await ownedRun(store, c.req.param("runId"), c.var.user);
          const report = await readJsonBody(c, ReportSchema, "The report");
          await quota.add(run.runId, report);
          return c.json({ accepted: true }, 202);
        },
      )
  );
}
