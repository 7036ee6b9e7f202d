import { pgRun, pgRunLink, type PgRunLinkRow, type PgRunRow } from "./rows.ts";
import { pgRunInputs } from "./run-inputs.ts";
import type { PgQueries } from "./runner.ts";
import type { PgStatements } from "./statements.ts";
import type { RunStore } from "../../store/index.ts";

/**
 * How the PostgreSQL store lists and looks up runs: never with their
 * requests (a stateless thread's each hold the whole history), which only
 * `readRunInput` reads. `rows` runs a read and maps its errors.
 */
export function pgRunReads(
  sql: PgStatements,
  inputs: ReturnType<typeof pgRunInputs>,
  runner: PgQueries,
  rows: <Row>(text: string, values: unknown[]) => Promise<Row[]>,
  read: <T>(query: () => Promise<T>) => Promise<T>,
): Pick<RunStore, "getRun" | "getActiveRun" | "listRuns" | "listRunLinks" | "readRunInput"> {
  return {
    async getRun(runId) {
      const [row] = await rows<PgRunRow>(sql.getRun, [runId]);
      return row && pgRun(row);
    },
    async getActiveRun(threadId) {
      const [row] = await rows<PgRunRow>(sql.getActiveRun, [threadId]);
      return row && pgRun(row);
    },
    async listRuns(threadId) {
      return (await rows<PgRunRow>(sql.listRuns, [threadId])).map(pgRun);
    },
    async listRunLinks(threadId) {
      return (await rows<PgRunLinkRow>(sql.listRunLinks, [threadId])).map(pgRunLink);
    },
    readRunInput: (runId) => read(() => inputs.read(runner, runId)),
  };
}
