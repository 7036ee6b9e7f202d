import { TetherError } from "../../../protocol/index.ts";
import type { PgQueries } from "./runner.ts";
import { quoteIdentifier } from "./schema.ts";
import { NO_REPORT_CAPS, checkReportRoom, reportBytes, type ReportCaps, type ReportTotals } from "../../store/shared/index.ts";

/**
 * `addReport` on PostgreSQL: the run's totals row is counted up only while
 * the report fits, in one statement that takes the row's lock, and the
 * report is inserted in the same transaction; two instances admitting
 * reports for one run at once queue on that row, so together they never
 * pass the caps. A refusal reads the totals row, never a report.
 */
export function pgReports(schema: string) {
  const s = quoteIdentifier(schema);
  const sql = {
    // The first report of a run makes its row (if the run exists); later ones count it up while it has room.
    countIn: `INSERT INTO ${s}.report_totals AS t (run_id, count, bytes) SELECT $1, 1, $2 WHERE EXISTS (SELECT 1 FROM ${s}.runs WHERE run_id = $1)
      ON CONFLICT (run_id) DO UPDATE SET count = t.count + 1, bytes = t.bytes + excluded.bytes
      WHERE t.count < $3 AND t.bytes + excluded.bytes <= $4 RETURNING t.count`,
    totals: `SELECT count, bytes::float8 AS bytes FROM ${s}.report_totals WHERE run_id = $1`,
    runExists: `SELECT 1 FROM ${s}.runs WHERE run_id = $1`,
    insert: `INSERT INTO ${s}.reports (run_id, received_at, body) VALUES ($1, $2, $3::json)`,
  };
  return async (tx: PgQueries, runId: string, report: unknown, receivedAt: string, caps: ReportCaps = NO_REPORT_CAPS): Promise<void> => {
    const json = JSON.stringify(report) ?? "null";
    const size = reportBytes(json);
    // A run's first report is counted without a check, so one that alone passes the caps is refused here.
    const firstFits = size <= caps.maxReportBytesPerRun && caps.maxReportsPerRun >= 1;
    const counted = firstFits ? (await tx.query(sql.countIn, [runId, size, caps.maxReportsPerRun, caps.maxReportBytesPerRun])).rows.length : 0;
    if (counted === 0) {
      const [totals] = (await tx.query<ReportTotals>(sql.totals, [runId])).rows;
      if (!totals && (await tx.query(sql.runExists, [runId])).rows.length === 0) throw new TetherError("run_not_found", `Run ${runId} does not exist.`);
      checkReportRoom(runId, totals ?? { count: 0, bytes: 0 }, size, caps);
      throw new Error(`The report totals of run ${runId} refused a report they have room for.`); // unreachable: checkReportRoom refused
    }
    await tx.query(sql.insert, [runId, receivedAt, json]);
  };
}
