import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { recordClient, userMessage, type RecordClient } from "./record-client.ts";

/**
 * A provider that refuses the key and says it back, headers and all (as some
 * proxies and self-hosted servers do): the run ends in a model error, and its
 * record says so without the key.
 */

const PROVIDER_KEY = "sk-proj-ECHOEDKEYECHOEDKEY0001";

let upstream: Server;
let server: DemoServer;
let client: RecordClient;
beforeAll(async () => {
  upstream = createServer((request, response) => {
    response.writeHead(401, { "Content-Type": "application/json" });
    const message = `Unauthorized. You sent authorization: ${request.headers.authorization} — check OPENAI_API_KEY.`;
    response.end(JSON.stringify({ error: { message, type: "invalid_request_error", code: "invalid_api_key" } }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const { port } = upstream.address() as AddressInfo;
  server = await startDemoServer({
    env: { TETHER_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: PROVIDER_KEY, OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
  });
  client = recordClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => upstream.close(resolve));
});

describe("a provider's error in a run record", () => {
  it("keeps the error and its code, never the key the provider echoed", async () => {
    const threadId = "rec-provider-echo";
    const frames = await client.run("kim", "workdesk", { threadId, runId: `${threadId}-r1`, messages: [userMessage(`${threadId}-u1`, "hello")] });
    expect(frames.at(-1)!.data.type).toBe("RUN_ERROR");
    // The client is told the provider refused, not the server's key.
    expect(JSON.stringify(frames)).not.toContain("ECHOEDKEY");

    const { body: record } = await client.record("kim", `${threadId}-r1`);
    const { body: chain } = await client.chain("kim", threadId);

    expect(record.error?.code).toBe("model_error");
    expect(record.error?.message).toMatch(/Unauthorized/);
    const everything = JSON.stringify(record) + JSON.stringify(chain);
    expect(everything).not.toContain(PROVIDER_KEY);
    expect(everything).not.toContain("ECHOEDKEY");
  });
});
