import { TetherError, isTetherError, isTetherErrorCode } from "../protocol/index.ts";

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

/** Any error as the session's state shows it: `{ code, message }`. */
export function errorJson(error: unknown): { code: string; message: string } {
  if (isTetherError(error)) return { code: error.code, message: error.message };
  return { code: "internal", message: (error as Error)?.message ?? String(error) };
}
