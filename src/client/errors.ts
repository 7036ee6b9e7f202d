import { HTTP_STATUS, TetherError, isTetherError, isTetherErrorCode } from "../protocol/index.ts";

/** An HTTP error body (`{ error: { code, message } }`) back as the TetherError the server threw. */
export async function errorFromResponse(response: Response): Promise<TetherError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (error && isTetherErrorCode(error.code) && typeof error.message === "string") {
    return new TetherError(error.code, error.message, { details: error.details });
  }
  return new TetherError("internal", `The server answered HTTP ${response.status} without a Tether error.`);
}

/** A RUN_ERROR event back as a TetherError. */
export function errorFromRunError(event: { code?: string; message: string }): TetherError {
  return new TetherError(isTetherErrorCode(event.code) ? event.code : "internal", event.message);
}

/** Any error as the session's state shows it: `{ code, message }`; a request that never reached the server, in words. */
export function errorJson(error: unknown): { code: string; message: string } {
  if (isTetherError(error)) return { code: error.code, message: error.message };
  if (isNetworkFailure(error)) return { code: "network_error", message: "Couldn't reach the server. Check the connection, then try again." };
  return { code: "internal", message: (error as Error)?.message ?? String(error) };
}

/** fetch's own rejection when no answer came: Chrome's "Failed to fetch", Firefox's "NetworkError…", Safari's "Load failed". */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && /failed to fetch|networkerror|load failed|fetch failed/i.test(error.message);
}

/** Worth sending again as it is: the network, a busy or failing server, a run still going; not a refusal of the message itself. */
export function isRetryable(code: string): boolean {
  if (!isTetherErrorCode(code)) return true; // network_error, or an error without a Tether code
  const status = HTTP_STATUS[code];
  return status >= 500 || status === 409 || status === 429;
}
