import type Database from "better-sqlite3";
import { TetherError } from "../../../protocol/index.ts";
import { NO_REPORT_CAPS, checkReportRoom, reportBytes, type ReportCaps } from "../../store/shared/index.ts";

/**
 * What each run keeps of reports, beside them: a report is checked against
 * this row, never against the reports themselves. Made apart from the other
 * tables, with the totals of the reports a file made before it already
 * holds, in one transaction: a file is never left with the table and
 * without its totals.
 */
export function addReportTotals(db: Database.Database): void {
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'report_totals'").get()) return;
  db.transaction(() => {
    db.exec(`CREATE TABLE report_totals (
  run_id TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  bytes INTEGER NOT NULL
)`);
    db.exec("INSERT INTO report_totals (run_id, count, bytes) SELECT run_id, COUNT(*), SUM(LENGTH(CAST(body AS BLOB))) FROM reports GROUP BY run_id");
  })();
}

/** Stores a report within the run's caps, checked and counted in the caller's transaction (the store's group commit). */
export function sqliteReports(db: Database.Database, now: () => string) {
  const statements = {
    runExists: db.prepare<[string], { found: number }>("SELECT 1 AS found FROM runs WHERE run_id = ?"),
    totals: db.prepare<[string], { count: number; bytes: number }>("SELECT count, bytes FROM report_totals WHERE run_id = ?"),
    insert: db.prepare("INSERT INTO reports (run_id, received_at, body) VALUES (?, ?, ?)"),
    count: db.prepare(
      `INSERT INTO report_totals (run_id, count, bytes) VALUES (?, 1, ?)
       ON CONFLICT (run_id) DO UPDATE SET count = count + 1, bytes = bytes + excluded.bytes`,
    ),
  };
  return (runId: string, report: unknown, caps: ReportCaps = NO_REPORT_CAPS) => {
    if (!statements.runExists.get(runId)) throw new TetherError("run_not_found", `Run ${runId} does not exist.`);
    const json = JSON.stringify(report) ?? "null";
    const size = reportBytes(json);
    checkReportRoom(runId, statements.totals.get(runId) ?? { count: 0, bytes: 0 }, size, caps);
    statements.insert.run(runId, now(), json);
    statements.count.run(runId, size);
  };
}
