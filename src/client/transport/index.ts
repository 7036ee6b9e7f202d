/**
 * How a session's events arrive: the reference HttpAgent with resuming
 * streams (`TetherHttpAgent`), the event stream that reconnects with
 * `Last-Event-ID`, and the SSE reader that keeps event ids.
 *
 * @module
 */
export { TetherHttpAgent, type TetherAgentConfig } from "./tether-agent.ts";
export { eventStream, type EventStreamOptions } from "./event-stream.ts";
export { readSse, readSseBatches, type SseMessage } from "./sse-reader.ts";
