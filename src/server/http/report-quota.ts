import { TetherError } from "../../protocol/index.ts";
import type { RunStore } from "../store/index.ts";
import type { ReportLimits } from "./report-limits.ts";

export interface ReportQuota {
  /**
   * Stores the report if the run has room for it, else refuses with
   * `report_too_large` or `report_limit_exceeded` and stores nothing.
   */
  add(runId: string, report: unknown): Promise<void>;
}

/**
 * Enforces `ReportLimits`: a report too large is refused before the store is
 * asked; the run's caps are the store's to check, in the write that stores
 * the report (`RunStore.addReport`), so they hold across instances and a
 * refusal reads no stored report.
 */
export function createReportQuota(store: RunStore, limits: ReportLimits): ReportQuota {
  const caps = { maxReportsPerRun: limits.maxReportsPerRun, maxReportBytesPerRun: limits.maxReportBytesPerRun };
  return {
    async add(runId, report) {
      const size = Buffer.byteLength(JSON.stringify(report) ?? "", "utf8");
      if (size > limits.maxReportBytes) {
        throw new TetherError(
          "report_too_large",
          `A report may have at most ${limits.maxReportBytes} bytes of JSON; this one has ${size}. Send a shorter message or fewer details.`,
        );
      }
      await store.addReport(runId, report, caps);
    },
  };
}
