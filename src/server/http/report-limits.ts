/**
 * How much a browser may report about one run. Reports are diagnostics (a
 * browser tool's outcome, a renderer's error), a few hundred bytes each; the
 * limits leave honest clients far from them and stop a signed-in user from
 * filling the store and the run record (40 reports of 1 MB on one run made a
 * 38 MiB record before these existed).
 */
export interface ReportLimits {
  /**
   * Largest single report, in bytes of JSON; bigger ones are refused with 413
   * `report_too_large`. Default 64 KiB: 16 times the 4,000 characters a
   * renderer error's message may have, room for its details and a tool
   * outcome's data, and a sixteenth of the request body limit.
   */
  maxReportBytes: number;
  /**
   * Most reports one run keeps; more are refused with 429
   * `report_limit_exceeded`. Default 200: a browser reports once per
   * render-only tool call and once per failed surface, and a run makes at
   * most a few dozen of those.
   */
  maxReportsPerRun: number;
  /**
   * Most bytes of reports one run keeps, summed over its reports; more are
   * refused with 429 `report_limit_exceeded`. Default 1 MiB: 16 reports of
   * the largest size, or the 200 of a few KiB an honest run could send, so
   * a run record's reports fit in one page of it.
   */
  maxReportBytesPerRun: number;
}

export const DEFAULT_REPORT_LIMITS: ReportLimits = {
  maxReportBytes: 64 * 1024,
  maxReportsPerRun: 200,
  maxReportBytesPerRun: 1024 * 1024,
};
