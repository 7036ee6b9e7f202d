import { describe, expect, it } from "vitest";
import { TETHER_ERROR_CODES, TetherError, type TetherErrorCode } from "../../protocol/index.ts";
import { HTTP_STATUS } from "./error-status.ts";
import { errorHandler } from "./errors.ts";
import { silentLogger } from "./logger.ts";
import { Hono } from "hono";

const codes = Object.keys(TETHER_ERROR_CODES) as TetherErrorCode[];

describe("HTTP_STATUS", () => {
  it("gives every code an HTTP error status", () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...codes].sort());
    for (const code of codes) {
      expect(HTTP_STATUS[code], code).toBeGreaterThanOrEqual(400);
      expect(HTTP_STATUS[code], code).toBeLessThan(600);
    }
  });

  it("maps the codes named in the style guide to their documented statuses", () => {
    expect({
      invalid_input: HTTP_STATUS.invalid_input,
      tool_not_allowed: HTTP_STATUS.tool_not_allowed,
      unauthenticated: HTTP_STATUS.unauthenticated,
      forbidden: HTTP_STATUS.forbidden,
      agent_not_found: HTTP_STATUS.agent_not_found,
      history_conflict: HTTP_STATUS.history_conflict,
      body_too_large: HTTP_STATUS.body_too_large,
      model_error: HTTP_STATUS.model_error,
      store_unavailable: HTTP_STATUS.store_unavailable,
      model_rate_limited: HTTP_STATUS.model_rate_limited,
      internal: HTTP_STATUS.internal,
    }).toEqual({
      invalid_input: 400,
      tool_not_allowed: 400,
      unauthenticated: 401,
      forbidden: 403,
      agent_not_found: 404,
      history_conflict: 409,
      body_too_large: 413,
      model_error: 502,
      store_unavailable: 503,
      model_rate_limited: 429,
      internal: 500,
    });
  });

  it("refuses a malformed action on generated UI with 400 and an unknown surface or action with 404", () => {
    expect({
      ui_action_invalid: HTTP_STATUS.ui_action_invalid,
      surface_unknown: HTTP_STATUS.surface_unknown,
      ui_action_unknown: HTTP_STATUS.ui_action_unknown,
    }).toEqual({ ui_action_invalid: 400, surface_unknown: 404, ui_action_unknown: 404 });
  });

  it("is the status the error handler answers with", async () => {
    const app = new Hono();
    app.onError(errorHandler(silentLogger));
    app.get("/conflict", () => {
      throw new TetherError("history_conflict", "Message m2 differs from the stored thread.");
    });
    app.get("/bug", () => {
      throw new TypeError("cannot read properties of undefined");
    });

    expect((await app.request("/conflict")).status).toBe(HTTP_STATUS.history_conflict);
    expect((await app.request("/bug")).status).toBe(HTTP_STATUS.internal);
  });
});
