import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createModel, parseModelSpec } from "../../apps/model-from-environment.ts";

/** What the tests need to know about one provider's wire protocol, and how Tether is pointed at it. */
export interface ProviderWire {
  name: "openai" | "anthropic" | "google" | "openai-compatible";
  /** The model id; fixtures are scoped to it, so the four providers share one aimock without meeting each other's fixtures. */
  modelId: string;
  /** `LanguageModelV3.provider` of the AI SDK model: what TokenUsage.provider says. */
  sdkProvider: string;
  /** The path aimock serves this provider's streaming call on. */
  streamPath: RegExp;
  /**
   * Whether the wire streams a tool call's arguments in pieces. Gemini sends
   * each function call whole (`args` as an object), so its arguments arrive
   * in one TOOL_CALL_ARGS.
   */
  streamsToolArguments: boolean;
  /** Tool call ids as this provider mints them; undefined when the wire carries none and the AI SDK makes them up (Gemini 2.x). */
  toolCallId(name: string): string | undefined;
  /** The model as `TETHER_MODEL` and the provider's usual environment variables configure it, talking to `origin`. */
  model(origin: string): Promise<LanguageModelV3>;
  /** The error event this provider sends in the middle of a stream, in its own format. */
  errorFrame(message: string): string;
}

const OPENAI_ERROR_FRAME = (message: string) => `data: ${JSON.stringify({ error: { message, type: "server_error", param: null, code: "server_error" } })}\n\n`;

export const PROVIDER_WIRES: ProviderWire[] = [
  {
    name: "openai",
    modelId: "gpt-4o-mini",
    sdkProvider: "openai.chat",
    streamPath: /^\/v1\/chat\/completions$/,
    streamsToolArguments: true,
    toolCallId: (name) => `call_${name}_openai`,
    model: (origin) => createModel(parseModelSpec("openai:gpt-4o-mini"), { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: `${origin}/v1` }),
    errorFrame: OPENAI_ERROR_FRAME,
  },
  {
    name: "anthropic",
    modelId: "claude-sonnet-4-5",
    sdkProvider: "anthropic.messages",
    streamPath: /^\/v1\/messages$/,
    streamsToolArguments: true,
    toolCallId: (name) => `toolu_${name}_anthropic`,
    // The SDK appends /messages to a base URL ending in /v1.
    model: (origin) => createModel(parseModelSpec("anthropic:claude-sonnet-4-5"), { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: `${origin}/v1` }),
    errorFrame: (message) => `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message } })}\n\n`,
  },
  {
    name: "google",
    modelId: "gemini-2.5-flash",
    sdkProvider: "google.generative-ai",
    streamPath: /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent\?alt=sse$/,
    streamsToolArguments: false,
    toolCallId: () => undefined,
    // The SDK appends /models/<model>:streamGenerateContent to a base URL ending in /v1beta.
    model: (origin) =>
      createModel(parseModelSpec("google:gemini-2.5-flash"), { GOOGLE_GENERATIVE_AI_API_KEY: "test-key", GOOGLE_GENERATIVE_AI_BASE_URL: `${origin}/v1beta` }),
    errorFrame: (message) => `data: ${JSON.stringify({ error: { code: 503, message, status: "UNAVAILABLE" } })}\n\n`,
  },
  {
    name: "openai-compatible",
    modelId: "llama3.1",
    sdkProvider: "openai-compatible.chat",
    streamPath: /^\/v1\/chat\/completions$/,
    streamsToolArguments: true,
    toolCallId: (name) => `call_${name}_compatible`,
    // The base URL is part of the spec; the SDK appends /chat/completions.
    model: (origin) => createModel(parseModelSpec(`openai-compatible:llama3.1@${origin}/v1`), { OPENAI_COMPATIBLE_API_KEY: "test-key" }),
    errorFrame: OPENAI_ERROR_FRAME,
  },
];
