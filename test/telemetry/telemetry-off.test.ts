import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDemoServer } from "../helpers/demo-server.ts";
import { createScriptedApp } from "../helpers/scripted-app.ts";
import { recordClient, userMessage } from "../record/record-client.ts";

/**
 * Telemetry is off unless asked for: even with a tracer provider registered
 * globally (another library's NodeSDK, say), Tether makes no span, and its
 * records name no trace. `telemetry: {}` is how an app opts in to that
 * global provider.
 */

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  trace.disable();
  await provider.shutdown();
});
beforeEach(() => exporter.reset());

describe("telemetry off", () => {
  it("creates no span and leaves the record without a trace id (the demo server, no OTEL_EXPORTER_OTLP_ENDPOINT)", async () => {
    const server = await startDemoServer();
    try {
      expect(server.demo.telemetryUrl).toBeUndefined();
      const client = recordClient(server.url, server.token);
      await client.run("kim", "workdesk", { threadId: "otel-off", runId: "otel-off-r1", messages: [userMessage("otel-off-u1", "open the work request list")] });
      const { body: record } = await client.record("kim", "otel-off-r1");
      expect(record.modelCalls.length).toBeGreaterThan(0);
      expect(record).not.toHaveProperty("traceId");
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("is turned on with `telemetry: {}`, tracing into the globally registered provider", async () => {
    const app = await createScriptedApp([{ text: "Hello." }], { app: { telemetry: {} } });
    await app.run({ threadId: "otel-global", runId: "otel-global-r1", messages: [userMessage("u1", "hello")] });
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["chat scripted", "invoke_agent test"]);
    const run = await app.store.getRun("otel-global-r1");
    expect(run?.status).toBe("finished");
    await app.tether.close();
  });
});

describe("records off", () => {
  it("keeps the run's events and outcome but writes no model calls or tool decisions (createTetherApp({ records: false }))", async () => {
    const app = await createScriptedApp([{ text: "Hello." }], { app: { records: false } });
    await app.run({ threadId: "records-off", runId: "records-off-r1", messages: [userMessage("u1", "hello")] });
    expect(await app.store.listFacts("records-off-r1")).toEqual([]);
    expect((await app.store.readEvents("records-off-r1")).at(-1)!.event.type).toBe("RUN_FINISHED");
    await app.tether.close();
  });

  it("still stores the trace id when telemetry is on, so the spans can be found from the run", async () => {
    const app = await createScriptedApp([{ text: "Hello." }], { app: { records: false, telemetry: { tracerProvider: provider } } });
    await app.run({ threadId: "records-off-traced", runId: "records-off-traced-r1", messages: [userMessage("u1", "hello")] });
    const run = exporter.getFinishedSpans().find((span) => span.name === "invoke_agent test")!;
    expect(await app.store.listFacts("records-off-traced-r1")).toEqual([
      { kind: "trace", traceId: run.spanContext().traceId, spanId: run.spanContext().spanId },
    ]);
    await app.tether.close();
  });
});
