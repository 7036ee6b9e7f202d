import { TetherError, type TetherErrorCode } from "../../protocol/index.ts";
import { redactString } from "../record/index.ts";

/** How much of an upstream's own words a client is told: enough to read, never a dump. */
const MAX_WORDS = 300;
/**
 * How much of them is redacted, before the cut: redaction is linear, and an upstream's message can be
 * megabytes; the margin lets a secret that straddles the cut be seen whole, and so redacted.
 */
const REDACTED_WORDS = 16 * MAX_WORDS;

/**
 * An upstream agent's failure in Tether's words, with the upstream's own
 * message (redacted: agents echo prompts and keys back) cut to a readable
 * length. Unlike a model provider's, an upstream's message is its author's
 * to give: the app that put Tether in front of it chose to run it.
 */
export function upstreamFailure(code: Extract<TetherErrorCode, "upstream_error" | "upstream_unavailable">, what: string, said: unknown): TetherError {
  const words = typeof said === "string" ? redactString(said.slice(0, REDACTED_WORDS)).trim() : "";
  const cut = words.length > MAX_WORDS ? `${words.slice(0, MAX_WORDS)}…` : words;
  return new TetherError(code, `The upstream agent ${what}${cut ? `: ${cut}` : "."}`);
}
