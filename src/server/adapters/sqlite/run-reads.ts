import type { RunStore } from "../../store/index.ts";
import { toRun, toRunLink } from "./rows.ts";
import type { sqliteRunInputs } from "./run-inputs.ts";
import type { prepareStatements } from "./statements.ts";

/**
 * How the SQLite store lists and looks up runs: never with their requests (a
 * stateless thread's each hold the whole history), which only `readRunInput`
 * reads. `read` runs a query as the store's reads do (waiting out a lock).
 */
export function sqliteRunReads(
  statements: ReturnType<typeof prepareStatements>,
  inputs: ReturnType<typeof sqliteRunInputs>,
  read: <T>(query: () => T) => Promise<T>,
): Pick<RunStore, "getRun" | "getActiveRun" | "listRuns" | "listRunLinks" | "readRunInput"> {
  return {
    getRun: (runId) =>
      read(() => {
        const row = statements.getRun.get(runId);
        return row && toRun(row);
      }),
    getActiveRun: (threadId) =>
      read(() => {
        const row = statements.getActiveRun.get(threadId);
        return row && toRun(row);
      }),
    listRuns: (threadId) => read(() => statements.listRuns.all(threadId).map(toRun)),
    listRunLinks: (threadId) => read(() => statements.listRunLinks.all(threadId).map(toRunLink)),
    readRunInput: (runId) => read(() => inputs.read(runId)),
  };
}
