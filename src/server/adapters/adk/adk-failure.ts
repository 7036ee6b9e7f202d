import { TetherError } from "../../../protocol/index.ts";
import { redactString } from "../../record/index.ts";

/** ADK itself failed (not the model): its words, redacted and cut short, for the run's end. */
export function adkFailure(said: unknown, cause?: unknown): TetherError {
  const words = redactString(String(said ?? "").slice(0, 400)).trim();
  return new TetherError("upstream_error", `The ADK agent failed: ${words || "no reason given"}`, cause === undefined ? {} : { cause });
}
