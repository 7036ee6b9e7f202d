import type { PgQueries } from "./runner.ts";
import { toPgStoreError } from "./errors.ts";
import { quoteIdentifier } from "./schema.ts";
import type { RunStore } from "../../store/index.ts";

/**
 * Cancels that cross instances through the database (`recordCancelRequest`,
 * `listCancelRequests`): a mark on the run's row, set only while it runs, that
 * its instance looks for among its own running runs (the `runs_running_by_owner`
 * index: a look costs one small indexed read however many runs there are).
 */
export function pgCancelRequests(options: {
  runner: PgQueries;
  schema: string;
  instanceId: string;
  now: () => string;
}): Required<Pick<RunStore, "recordCancelRequest" | "listCancelRequests">> {
  const { runner, instanceId } = options;
  const s = quoteIdentifier(options.schema);
  const record = `UPDATE ${s}.runs SET cancel_requested_at = COALESCE(cancel_requested_at, $2) WHERE run_id = $1 AND status = 'running' RETURNING run_id`;
  const list = `SELECT run_id FROM ${s}.runs WHERE owner = $1 AND status = 'running' AND cancel_requested_at IS NOT NULL`;
  return {
    async recordCancelRequest(runId) {
      try {
        return (await runner.query(record, [runId, options.now()])).rows.length === 1;
      } catch (error) {
        throw toPgStoreError(error, "record the cancel request");
      }
    },
    async listCancelRequests() {
      try {
        return (await runner.query<{ run_id: string }>(list, [instanceId])).rows.map((row) => row.run_id);
      } catch (error) {
        throw toPgStoreError(error, "read the cancel requests");
      }
    },
  };
}
