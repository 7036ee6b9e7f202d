import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

/** The demo's span pipeline, when the environment asks for one. */
export interface DemoTelemetry {
  tracerProvider: TracerProvider;
  /** Where spans go (the OTLP/HTTP traces URL). */
  url: string;
  /** Exports what is still queued, then stops. */
  shutdown(): Promise<void>;
}

/**
 * OpenTelemetry for the demo server, from the standard OTLP variables: with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (traces go to `<endpoint>/v1/traces`) or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (as is) set, a tracer provider with a
 * BatchSpanProcessor and the OTLP/HTTP (protobuf) exporter, named by
 * `OTEL_SERVICE_NAME` (default `tether-demo`), sending
 * `OTEL_EXPORTER_OTLP_HEADERS` (`key=value,…`). Neither set: undefined, and
 * no telemetry at all.
 */
export function telemetryFromEnvironment(env: Record<string, string | undefined>): DemoTelemetry | undefined {
  const url =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (env.OTEL_EXPORTER_OTLP_ENDPOINT ? `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces` : "");
  if (!url) return undefined;
  const exporter = new OTLPTraceExporter({ url, headers: parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS ?? "") });
  const tracerProvider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": env.OTEL_SERVICE_NAME || "tether-demo" }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  return { tracerProvider, url, shutdown: () => tracerProvider.shutdown() };
}

/** `OTEL_EXPORTER_OTLP_HEADERS`: comma-separated `key=value` pairs, values URL-encoded. */
function parseHeaders(value: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of value.split(",")) {
    const at = pair.indexOf("=");
    if (at > 0) headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}
