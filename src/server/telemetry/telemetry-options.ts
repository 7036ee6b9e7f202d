import type { TracerProvider } from "@opentelemetry/api";

/**
 * OpenTelemetry for `createTetherApp`: spans per run, model call and tool
 * execution (GenAI semantic conventions), and the trace id in each run's
 * record. Tether uses only `@opentelemetry/api`; the app chooses and owns the
 * SDK (a provider with a BatchSpanProcessor and an OTLP exporter, say) and
 * shuts it down, which flushes its spans.
 */
export interface TelemetryOptions {
  /** Where spans go. Default: the provider registered globally (`trace.setGlobalTracerProvider`, NodeSDK). */
  tracerProvider?: TracerProvider;
}
