import { describe, expect, it } from "vitest";
import { isTetherError } from "../protocol/index.ts";
import { errorFromResponse, errorFromRunError, errorJson, isRetryable } from "./errors.ts";

const body = (status: number, value: unknown) => new Response(JSON.stringify(value), { status, headers: { "Content-Type": "application/json" } });

describe("errorJson", () => {
  it("keeps a TetherError's code and words", () => {
    expect(errorJson(errorFromRunError({ code: "model_error", message: "The model failed." }))).toEqual({ code: "model_error", message: "The model failed." });
  });

  it("names a fetch that got no answer network_error, in words a person can act on", () => {
    expect(errorJson(new TypeError("Failed to fetch"))).toEqual({
      code: "network_error",
      message: "Couldn't reach the server. Check the connection, then try again.",
    });
    expect(errorJson(new TypeError("NetworkError when attempting to fetch resource."))).toMatchObject({ code: "network_error" });
  });

  it("names anything else internal, its message kept", () => {
    expect(errorJson(new RangeError("out of range"))).toEqual({ code: "internal", message: "out of range" });
  });
});

describe("errors from the server", () => {
  it("map a code this client does not know to internal, so the state holds only codes of the union", async () => {
    expect(errorFromRunError({ code: "made_up_code", message: "Something else went wrong." })).toMatchObject({
      code: "internal",
      message: "Something else went wrong.",
    });
    const fromBody = await errorFromResponse(body(418, { error: { code: "made_up_code", message: "No." } }));
    expect(isTetherError(fromBody)).toBe(true);
    expect(fromBody).toMatchObject({ code: "internal", message: "The server answered HTTP 418 without a Tether error." });
  });

  it("keep a known code, its words and details", async () => {
    const error = await errorFromResponse(body(409, { error: { code: "history_conflict", message: "Moved on.", details: { messageId: "m2" } } }));
    expect(error).toMatchObject({ code: "history_conflict", message: "Moved on.", details: { messageId: "m2" } });
  });
});

describe("isRetryable", () => {
  it("says a message may be sent again after the network, a busy server or a run still going, not after a refusal", () => {
    expect(isRetryable("network_error")).toBe(true);
    expect(isRetryable("run_in_progress")).toBe(true);
    expect(isRetryable("model_rate_limited")).toBe(true);
    expect(isRetryable("store_unavailable")).toBe(true);
    expect(isRetryable("invalid_input")).toBe(false);
    expect(isRetryable("forbidden")).toBe(false);
  });
});
