import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { startDemoServer } from "../helpers/demo-server.ts";
import { recordClient, userMessage } from "../record/record-client.ts";

/** What a collector received: one POST each. */
interface Received {
  path: string;
  contentType: string;
  body: string;
}

/** A stand-in OTLP/HTTP collector on a loopback port: takes every POST, answers 200 with an empty export response. */
async function startCollector() {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", contentType: request.headers["content-type"] ?? "", body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: { stringValue?: string } }>;
}

describe("the demo server with OTEL_EXPORTER_OTLP_ENDPOINT set", () => {
  it("exports its runs' spans over OTLP/HTTP to <endpoint>/v1/traces, sent at the latest when it closes", async () => {
    const collector = await startCollector();
    const server = await startDemoServer({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: "tether-wire-test" } });
    try {
      expect(server.demo.telemetryUrl).toBe(`${collector.url}/v1/traces`);
      const client = recordClient(server.url, server.token);
      await client.run("kim", "workdesk", {
        threadId: "otel-wire",
        runId: "otel-wire-r1",
        messages: [userMessage("otel-wire-u1", "open the work request list")],
      });
      const { body: record } = await client.record("kim", "otel-wire-r1");
      await server.close();

      expect(collector.received.length).toBeGreaterThan(0);
      for (const post of collector.received) {
        expect(post.path).toBe("/v1/traces");
        expect(post.contentType).toContain("application/json");
      }
      const exported = collector.received.map(
        (post) =>
          JSON.parse(post.body) as {
            resourceSpans: Array<{ resource: { attributes: OtlpSpan["attributes"] }; scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }> }>;
          },
      );
      const resource = exported[0]!.resourceSpans[0]!.resource;
      expect(resource.attributes).toContainEqual({ key: "service.name", value: { stringValue: "tether-wire-test" } });
      const spans = exported.flatMap((body) => body.resourceSpans.flatMap((resourceSpans) => resourceSpans.scopeSpans.flatMap((scope) => scope.spans)));
      const run = spans.find((span) =>
        span.attributes.some((attribute) => attribute.key === "tether.run.id" && attribute.value.stringValue === "otel-wire-r1"),
      );
      expect(run?.name).toBe("invoke_agent workdesk");
      // OTLP/JSON writes ids as hex: the same trace id the record holds.
      expect(run!.traceId).toBe(record.traceId);
      const children = spans.filter((span) => span.parentSpanId === run!.spanId).map((span) => span.name);
      expect(children).toEqual(expect.arrayContaining(["chat playbook:workdesk", "execute_tool lookupScreens"]));
    } finally {
      await collector.close();
    }
  });
});
