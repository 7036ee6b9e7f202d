import { describe, expect, it } from "vitest";
import { TETHER_ERROR_CODES, TetherError, isTetherError, isTetherErrorCode, toTetherError, type TetherErrorCode } from "./errors.ts";

const codes = Object.keys(TETHER_ERROR_CODES) as TetherErrorCode[];

describe("TETHER_ERROR_CODES", () => {
  it("spells every code as its own value, in lowercase snake_case", () => {
    for (const code of codes) {
      expect(TETHER_ERROR_CODES[code]).toBe(code);
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    }
  });
});

describe("the codes of actions on generated UI", () => {
  it("serialise like any other code", () => {
    expect(new TetherError("surface_unknown", "Thread t1 shows no surface s1.").toJSON()).toEqual({
      error: { code: "surface_unknown", message: "Thread t1 shows no surface s1." },
    });
  });
});

describe("TetherError", () => {
  it("carries its code and message", () => {
    const error = new TetherError("history_conflict", "Message m2 differs from the stored thread.");

    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("TetherError");
    expect(error.code).toBe("history_conflict");
    expect(error.message).toBe("Message m2 differs from the stored thread.");
  });

  it("serialises to { error: { code, message } } without details when it has none", () => {
    const error = new TetherError("agent_not_found", 'There is no agent "nope".');

    expect(error.toJSON()).toEqual({ error: { code: "agent_not_found", message: 'There is no agent "nope".' } });
    expect(Object.keys(error.toJSON().error)).toEqual(["code", "message"]);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ error: { code: "agent_not_found", message: 'There is no agent "nope".' } });
  });

  it("serialises its details beside code and message", () => {
    const error = new TetherError("tool_schema_mismatch", "The parameters differ.", { details: { tool: "navigate" } });

    expect(error.toJSON()).toEqual({ error: { code: "tool_schema_mismatch", message: "The parameters differ.", details: { tool: "navigate" } } });
  });

  it("keeps the cause it was given", () => {
    const cause = new Error("socket hang up");

    expect(new TetherError("model_error", "The model failed.", { cause }).cause).toBe(cause);
  });

  it("is retryable for a rate limit, an upstream model failure, storage trouble, a lost instance and an unreachable server only", () => {
    expect(new TetherError("model_rate_limited", "Slow down.").retryable).toBe(true);
    expect(new TetherError("model_error", "Upstream failed.").retryable).toBe(true);
    expect(new TetherError("store_unavailable", "The database is locked.").retryable).toBe(true);
    expect(new TetherError("instance_lost", "The server stopped.").retryable).toBe(true);
    expect(new TetherError("network_error", "No answer.").retryable).toBe(true);
    expect(new TetherError("invalid_input", "Bad body.").retryable).toBe(false);
    expect(new TetherError("internal", "Bug.").retryable).toBe(false);
  });
});

describe("isTetherError", () => {
  it("recognises a TetherError", () => {
    expect(isTetherError(new TetherError("forbidden", "Not yours."))).toBe(true);
  });

  it("recognises an error from a second copy of the package by its Symbol.for marker", () => {
    const fromAnotherBundle = { [Symbol.for("tether.error")]: true, code: "forbidden", message: "Not yours." };

    expect(isTetherError(fromAnotherBundle)).toBe(true);
  });

  it("rejects ordinary errors and look-alikes without the marker", () => {
    expect(isTetherError(new Error("boom"))).toBe(false);
    expect(isTetherError({ code: "forbidden", message: "Not yours." })).toBe(false);
    expect(isTetherError({ [Symbol.for("tether.error")]: "yes" })).toBe(false);
    expect(isTetherError(null)).toBe(false);
    expect(isTetherError("forbidden")).toBe(false);
  });
});

describe("isTetherErrorCode", () => {
  it("accepts known codes and rejects anything else", () => {
    expect(isTetherErrorCode("tool_not_allowed")).toBe(true);
    expect(isTetherErrorCode("no_such_code")).toBe(false);
    expect(isTetherErrorCode("toString")).toBe(false);
    expect(isTetherErrorCode(400)).toBe(false);
  });
});

describe("toTetherError", () => {
  it("passes a TetherError through unchanged", () => {
    const error = new TetherError("run_exists", "Run r1 already exists.");

    expect(toTetherError(error)).toBe(error);
  });

  it("wraps an ordinary Error as internal, keeping it as the cause", () => {
    const thrown = new TypeError("cannot read properties of undefined");
    const error = toTetherError(thrown);

    expect(error.code).toBe("internal");
    expect(error.cause).toBe(thrown);
    expect(error.message).not.toContain("cannot read properties");
  });

  it("wraps a thrown non-error value as internal, keeping it as the cause", () => {
    const error = toTetherError("a string was thrown");

    expect(error.code).toBe("internal");
    expect(error.cause).toBe("a string was thrown");
    expect(error.toJSON()).toEqual({ error: { code: "internal", message: "Something went wrong inside Tether." } });
  });
});
