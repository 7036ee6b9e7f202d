import { TetherError, isTetherError } from "../../../protocol/index.ts";
import { beginRunRefusals } from "../../store/shared/index.ts";

interface PgErrorFields {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

/** A transaction that lost a race the database detected (a serialization failure, a deadlock): worth running again. */
export function isPgRetryable(error: unknown): boolean {
  const code = (error as PgErrorFields | null)?.code;
  return code === "40001" || code === "40P01";
}

/** Network failures of the driver, before PostgreSQL could answer. */
const NETWORK = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "EAI_AGAIN"]);
/**
 * SQLSTATEs that mean the database, not the request, is in trouble: the
 * connection (08), resources such as a full disk or too many connections
 * (53), a server shutting down or starting (57P0x), a lock or statement
 * timeout (55P03, 57014), a transaction idle too long (25P03), an I/O error
 * (58), a lost race after retries (40).
 */
const UNAVAILABLE = /^(08|53|57P0|55P03|57014|25P03|58|40)/;
const DRIVER_GONE = /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|Cannot use a pool after calling end/i;

/**
 * A PostgreSQL failure as the store reports it: storage trouble becomes
 * `store_unavailable` (the caller may try again), a race the constraints
 * caught becomes the refusal the checks before it would have given, a
 * string PostgreSQL cannot hold becomes `invalid_input`; anything else is
 * thrown as is.
 */
export function toPgStoreError(error: unknown, what = "reach the database"): unknown {
  if (isTetherError(error)) return error;
  const fields = (error ?? {}) as PgErrorFields;
  const code = typeof fields.code === "string" ? fields.code : undefined;
  const message = typeof fields.message === "string" ? fields.message : String(error);
  if (code === "23505") {
    // Two instances began runs at the same moment; the database admitted one.
    if (fields.constraint === "runs_one_running_per_thread") return beginRunRefusals.runInProgress();
    if (fields.constraint === "runs_pkey") return new TetherError("run_exists", "This run id is already taken; every run needs a new runId.", { cause: error });
    if (fields.constraint === "messages_thread_id_message_id_key") return beginRunRefusals.messageIdUsed();
  }
  if (code === "22021" || code === "22P05") {
    return new TetherError("invalid_input", `The request holds text the database cannot store (${message}); remove NUL characters and invalid Unicode.`, {
      cause: error,
    });
  }
  if ((code && (NETWORK.has(code) || UNAVAILABLE.test(code))) || DRIVER_GONE.test(message)) {
    return new TetherError("store_unavailable", `Could not ${what}: PostgreSQL failed (${code ?? message}). Try again once the database is back.`, {
      cause: error,
    });
  }
  return error;
}
