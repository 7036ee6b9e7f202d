import { APICallError, LoadAPIKeyError } from "@ai-sdk/provider";
import { createOpenAI } from "@ai-sdk/openai";
import { describe, expect, it } from "vitest";
import { TetherError } from "../../protocol/index.ts";
import { providerMessage, toModelError } from "./model-error.ts";

const apiError = (statusCode: number | undefined, message: string, isRetryable = false) =>
  new APICallError({ message, url: "https://model.example/v1", requestBodyValues: {}, statusCode, isRetryable });

describe("toModelError", () => {
  it("words each kind of provider failure from its status, never with the provider's text", () => {
    const said = "echo: {'api_key': 'sk_live_51abcdefghijklmnop'} PASSWORD=\"hunter2\"";
    const cases: Array<[APICallError, string, RegExp]> = [
      [apiError(401, said), "model_error", /credentials \(HTTP 401; trying again will not help\)/],
      [apiError(403, said), "model_error", /credentials \(HTTP 403;/],
      [apiError(429, said, true), "model_rate_limited", /limiting requests \(HTTP 429; try again later\)/],
      [apiError(400, said), "model_error", /refused the request as invalid \(HTTP 400; trying again will not help\)/],
      [apiError(404, said), "model_error", /refused the request as invalid \(HTTP 404;/],
      [apiError(503, said, true), "model_error", /unavailable \(HTTP 503; try again later\)/],
    ];
    for (const [error, code, words] of cases) {
      const modelError = toModelError(error);
      expect(modelError.code).toBe(code);
      expect(modelError.message).toMatch(/^The model provider failed: /);
      expect(modelError.message).toMatch(words);
      expect(modelError.message).not.toMatch(/echo|api_key|sk_live|hunter2|PASSWORD/);
      expect(modelError.details).toEqual(expect.objectContaining({ statusCode: error.statusCode, retryable: error.isRetryable }));
    }
  });

  it("says a provider with no API key is the server's configuration, not a failure to try again later", async () => {
    // What @ai-sdk/openai throws when neither apiKey nor OPENAI_API_KEY is given, before any request.
    const model = createOpenAI({ apiKey: undefined, baseURL: "http://127.0.0.1:9/v1" }).chat("gpt-4o-mini");
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    const thrown = await Promise.resolve(model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })).catch(
      (error: unknown) => error,
    );
    if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    expect(LoadAPIKeyError.isInstance(thrown)).toBe(true);

    const modelError = toModelError(thrown);
    expect(modelError.code).toBe("model_error");
    expect(modelError.message).toBe(
      "The model provider failed: the server lacks an API key or setting for it (trying again will not help). Its own message is in the server's log.",
    );
    expect(providerMessage(thrown)).toMatch(/OPENAI_API_KEY/);
  });

  it("reads a mid-stream error object's type for its kind, and keeps its message, redacted, for the operator", () => {
    const overloaded = toModelError({ type: "error", error: { type: "overloaded_error", message: "Overloaded; token: abc123def" } });
    expect(overloaded.message).toBe("The model provider failed: it is unavailable (try again later). Its own message is in the server's log.");
    expect(providerMessage(overloaded)).toBe("Overloaded; token: [redacted]");

    const dropped = toModelError(new Error("socket hang up"));
    expect(dropped.message).toMatch(/stopped with an error while answering/);
    expect(providerMessage(dropped)).toBe("socket hang up");
  });

  it("passes Tether's own errors through, with no provider words to keep", () => {
    const own = new TetherError("step_limit_exceeded", "Too many steps.");
    expect(toModelError(own)).toBe(own);
    expect(providerMessage(own)).toBeUndefined();
  });
});
