import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "@tether-agent/tether/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { recordClient, userMessage, type RecordClient } from "./record-client.ts";

/**
 * A provider (a real HTTP server speaking the OpenAI API) that fails and says
 * back what it was sent, headers and all, as some proxies and self-hosted
 * servers do. The client is told what failed in Tether's words, never the
 * provider's; the record and the server's log keep the provider's words,
 * redacted.
 */

const PROVIDER_KEY = "sk-proj-ECHOEDKEYECHOEDKEY0001";
const ECHOED_STRIPE_KEY = "sk_live_51EchoedStripeKey0001";
const ECHOED_PASSWORD = "EchoedPassword0001";
/** How the provider answers the next request. */
let answer: (authorization: string | undefined) => { status: number; message: string };

let upstream: Server;
let server: DemoServer;
let client: RecordClient;
const logged: string[] = [];
const logger: Logger = { info() {}, warn: (message) => void logged.push(message), error: (message) => void logged.push(message) };
beforeAll(async () => {
  upstream = createServer((request, response) => {
    request.resume();
    const { status, message } = answer(request.headers.authorization);
    response.writeHead(status, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ error: { message, type: "invalid_request_error", code: status === 401 ? "invalid_api_key" : null } }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const { port } = upstream.address() as AddressInfo;
  server = await startDemoServer({
    env: { TETHER_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: PROVIDER_KEY, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    logger,
  });
  client = recordClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => upstream.close(resolve));
});

async function failingRun(threadId: string) {
  const frames = await client.run("kim", "workdesk", { threadId, runId: `${threadId}-r1`, messages: [userMessage(`${threadId}-u1`, "hello")] });
  const { body: record } = await client.record("kim", `${threadId}-r1`);
  const { body: chain } = await client.chain("kim", threadId);
  const thread = await (await fetch(`${server.url}/api/threads/${threadId}`, { headers: { Authorization: `Bearer ${server.token("kim")}` } })).json();
  return {
    frames,
    runError: frames.at(-1)!.data as { type: string; code: string; message: string },
    record,
    clientSees: JSON.stringify(frames) + JSON.stringify(thread) + JSON.stringify(chain),
  };
}

describe("a provider's error", () => {
  it("reaches the client and the record in Tether's words, and the server's log with the provider's, never the key it echoed", async () => {
    answer = (authorization) => ({ status: 401, message: `Unauthorized. You sent authorization: ${authorization} — check OPENAI_API_KEY.` });
    const { runError, record, clientSees } = await failingRun("rec-provider-echo");

    expect(runError).toMatchObject({ type: "RUN_ERROR", code: "model_error" });
    expect(runError.message).toMatch(/HTTP 401/);
    expect(runError.message).toMatch(/credentials/);
    // Neither the key nor anything else the provider said reaches the client.
    expect(clientSees).not.toContain("ECHOEDKEY");
    expect(clientSees).not.toContain("Unauthorized");

    expect(record.error).toEqual({ code: "model_error", message: runError.message });
    expect(record.modelCalls.at(-1)!.error).toMatchObject({ code: "model_error", provider: { statusCode: 401, failure: "authentication" } });
    // The thread's owner reads the record: the provider's words are not in it either.
    expect(record.modelCalls.at(-1)!.error!.provider).toEqual({ statusCode: 401, failure: "authentication" });
    expect(JSON.stringify(record)).not.toContain("ECHOEDKEY");
    expect(JSON.stringify(record)).not.toContain("Unauthorized");
    // The operator's log has them, and a header written out runs to the end of its line: all of it is redacted.
    expect(logged.join("\n")).toContain("rec-provider-echo-r1: The model provider failed");
    expect(logged.join("\n")).toContain("The provider said: Unauthorized. You sent authorization: [redacted]");
    expect(logged.join("\n")).not.toContain("ECHOEDKEY");
  });

  it("echoing a dict with a key and a password line: neither the client nor the record gets them or the provider's text, the log its words redacted", async () => {
    answer = () => ({ status: 400, message: `Invalid request, you sent {'api_key': '${ECHOED_STRIPE_KEY}'} PASSWORD="${ECHOED_PASSWORD}" in the body.` });
    const { runError, record, clientSees } = await failingRun("rec-provider-dict");

    expect(runError).toMatchObject({ type: "RUN_ERROR", code: "model_error" });
    expect(runError.message).toMatch(/HTTP 400/);
    for (const said of [ECHOED_STRIPE_KEY, ECHOED_PASSWORD, "Invalid request", "api_key", "PASSWORD"]) expect(clientSees, said).not.toContain(said);

    expect(record.modelCalls.at(-1)!.error!.provider).toEqual({ statusCode: 400, failure: "bad_request" });
    for (const said of ["Invalid request", "api_key", "PASSWORD"]) expect(JSON.stringify(record), said).not.toContain(said);
    expect(logged.join("\n")).toContain(`The provider said: Invalid request, you sent {'api_key': '[redacted]'} PASSWORD="[redacted]" in the body.`);
    for (const secret of [ECHOED_STRIPE_KEY, ECHOED_PASSWORD]) {
      expect(JSON.stringify(record), secret).not.toContain(secret);
      expect(logged.join("\n"), secret).not.toContain(secret);
    }
  });
});
