import { describe, expect, it } from "vitest";
import { isRetryable } from "@tether-agent/tether/internal";
import { TETHER_ERROR_CODES, type TetherErrorCode } from "@tether-agent/tether/protocol";
import { HTTP_STATUS } from "@tether-agent/tether/server";

const codes = Object.keys(TETHER_ERROR_CODES) as TetherErrorCode[];

// The browser cannot import the server's status map, so it keeps its own table; this holds the two together.
describe("the client's resend table", () => {
  it("offers to send again exactly after the codes the server answers with 5xx, 409 or 429", () => {
    const fromStatus = Object.fromEntries(codes.map((code) => [code, HTTP_STATUS[code] >= 500 || HTTP_STATUS[code] === 409 || HTTP_STATUS[code] === 429]));
    expect(Object.fromEntries(codes.map((code) => [code, isRetryable(code)]))).toEqual(fromStatus);
  });
});
