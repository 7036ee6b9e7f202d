import { TetherError } from "../../protocol/index.ts";
import type { RunStore } from "../store/port.ts";
import type { ReportLimits } from "./report-limits.ts";

export interface ReportQuota {
  /**
   * Stores the report if the run has room for it, else refuses with
   * `report_too_large` or `report_limit_exceeded` and stores nothing.
   */
  add(runId: string, report: unknown): Promise<void>;
}

/**
 * Enforces `ReportLimits` on `store.addReport`, counting what the run already
 * has with `store.listReports`: the limits bound that read too.
 */
export function createReportQuota(store: RunStore, limits: ReportLimits): ReportQuota {
  // One run's reports are admitted one at a time, so two sent at once cannot both take its last place.
  const queues = new Map<string, Promise<void>>();

  const admit = async (runId: string, report: unknown) => {
    const size = jsonBytes(report);
    if (size > limits.maxReportBytes) {
      throw new TetherError(
        "report_too_large",
        `A report may have at most ${limits.maxReportBytes} bytes of JSON; this one has ${size}. Send a shorter message or fewer details.`,
      );
    }
    const stored = await store.listReports(runId);
    if (stored.length >= limits.maxReportsPerRun) {
      throw new TetherError(
        "report_limit_exceeded",
        `Run ${runId} already has ${stored.length} reports, the most one run keeps. Stop reporting on this run; report on the next one.`,
      );
    }
    const used = stored.reduce((total, entry) => total + jsonBytes(entry.report), 0);
    if (used + size > limits.maxReportBytesPerRun) {
      throw new TetherError(
        "report_limit_exceeded",
        `Run ${runId} keeps at most ${limits.maxReportBytesPerRun} bytes of reports and has ${used}; this one (${size}) does not fit. Send shorter reports, or report on the next run.`,
      );
    }
    await store.addReport(runId, report);
  };

  return {
    add(runId, report) {
      const turn = (queues.get(runId) ?? Promise.resolve()).then(() => admit(runId, report));
      const settled = turn.catch(() => {});
      queues.set(runId, settled);
      // The last in line removes the queue, so it holds only runs being reported on right now.
      void settled.then(() => {
        if (queues.get(runId) === settled) queues.delete(runId);
      });
      return turn;
    },
  };
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
}
