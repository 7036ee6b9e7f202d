import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  SharedV3Warning,
} from "@ai-sdk/provider";

/**
 * A model of AI SDK 7's providers (`@ai-sdk/openai` 4 and its siblings):
 * language model specification v4, described here by what Tether reads of it
 * so Tether does not depend on `@ai-sdk/provider` 4 (which needs Node 22).
 * `toLanguageModelV3` turns it into the v3 model the run loop streams.
 *
 * What v4 changed, and what the adapter does about it (diffed against v3 in
 * `@ai-sdk/provider` 4.0):
 * - The call options only gained settings (`reasoning`), and every prompt part
 *   Tether writes (text, tool calls, tool results as text or JSON) is shaped
 *   the same. Only files changed (tagged `{ type: "data" | "url" | … }`
 *   data, in messages and in tool results' `content`): Tether never sends
 *   one, and a prompt that has one is refused rather than misread.
 * - Stream parts: `ping`, `custom` and `reasoning-file` are new and v3 has no
 *   word for them (Tether reads none): dropped. A tool's input may stream as
 *   raw text (`inputEncoding: "text"`, OpenAI's custom tools) while Tether
 *   streams arguments as JSON: those deltas are dropped and the JSON input of
 *   the closing `tool-call` is used, as for a provider that never streams it.
 *   A `file`'s data is tagged (a URL is dropped: v3's files carry bytes).
 *   The finish reason `interrupted` (the stream ended without the provider
 *   saying why) is `other`, what a v3 provider reports for the same stream.
 *   A `deprecated` warning is an `other` one. Every other part, usage and
 *   provider metadata included, is the same in both.
 * - Errors are the same classes, recognised by the same `Symbol.for` marker,
 *   so retries and Tether's wording of a provider's failure read them as
 *   before. `doGenerate` is not described: the run loop only streams.
 */
export interface LanguageModelV4 {
  readonly specificationVersion: "v4";
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: PromiseLike<Record<string, RegExp[]>> | Record<string, RegExp[]>;
  doStream(options: SharedCallOptions): PromiseLike<{
    stream: ReadableStream<LanguageModelV4StreamPart>;
    request?: { body?: unknown };
    response?: { headers?: Record<string, string> };
  }>;
}

/** v3's call options with the prompt parts v4 shaped differently left out: what Tether can hand to either. */
export type SharedCallOptions = Omit<LanguageModelV3CallOptions, "prompt"> & { prompt: Array<SharedMessage<LanguageModelV3Message>> };
type SharedMessage<M> = M extends { content: Array<infer P> } ? Omit<M, "content"> & { content: Array<SharedPromptPart<P>> } : M;
type SharedPromptPart<P> = P extends { type: "file" }
  ? never
  : P extends { type: "tool-result"; output: infer O }
    ? Omit<P, "output"> & { output: Exclude<O, { type: "content" }> }
    : P;

/**
 * A v4 stream part, typed by its kind only: v4 types JSON values (provider
 * metadata, tool results) as readonly, so no v4 part is a v3 part to the
 * compiler, although the parts the adapter passes on are the same objects
 * at run time. The parts that did change are read by the shapes below.
 */
export interface LanguageModelV4StreamPart {
  readonly type: string;
}

interface V4Finish {
  type: "finish";
  finishReason: { unified: LanguageModelV3FinishReason["unified"] | "interrupted"; raw: string | undefined };
}
interface V4File {
  type: "file";
  data: { type: "data"; data: Uint8Array | string } | { type: "url"; url: URL };
}
interface V4StreamStart {
  type: "stream-start";
  warnings: Array<SharedV3Warning | { type: "deprecated"; setting: string; message: string }>;
}
interface V4ToolInputStart {
  type: "tool-input-start";
  id: string;
  inputEncoding?: "json" | "text";
}

export function isLanguageModelV4(model: LanguageModelV3 | LanguageModelV4): model is LanguageModelV4 {
  return model.specificationVersion === "v4";
}

/** The model as specification v3: a v3 model as it is, a v4 one adapted. */
export function toLanguageModelV3(model: LanguageModelV3 | LanguageModelV4): LanguageModelV3 {
  if (!isLanguageModelV4(model)) return model;
  return {
    specificationVersion: "v3",
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    async doStream(options) {
      assertSharedPrompt(options);
      const result = await model.doStream(options);
      return { ...result, stream: result.stream.pipeThrough(toV3Parts()) };
    },
    async doGenerate() {
      // A programmer error: Tether's run loop only streams.
      throw new Error(`Tether streams every model call; ${model.provider} ${model.modelId} (specification v4) was asked to generate.`);
    },
  };
}

function toV3Parts(): TransformStream<LanguageModelV4StreamPart, LanguageModelV3StreamPart> {
  const textInputs = new Set<string>();
  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case "ping":
        case "custom":
        case "reasoning-file":
          return;
        case "tool-input-start": {
          const { inputEncoding, ...start } = part as V4ToolInputStart;
          if (inputEncoding === "text") textInputs.add(start.id);
          controller.enqueue(start as LanguageModelV3StreamPart);
          return;
        }
        case "tool-input-delta":
          if (!textInputs.has((part as V4ToolInputStart).id)) controller.enqueue(part as LanguageModelV3StreamPart);
          return;
        case "file": {
          const file = part as V4File;
          if (file.data.type === "data") controller.enqueue({ ...file, data: file.data.data } as LanguageModelV3StreamPart);
          return;
        }
        case "finish": {
          const { unified, raw } = (part as V4Finish).finishReason;
          controller.enqueue({ ...part, finishReason: { unified: unified === "interrupted" ? "other" : unified, raw } } as LanguageModelV3StreamPart);
          return;
        }
        case "stream-start": {
          const warnings = (part as V4StreamStart).warnings.map((warning) => (warning.type === "deprecated" ? toOtherWarning(warning) : warning));
          controller.enqueue({ type: "stream-start", warnings });
          return;
        }
        default:
          // Shaped as in v3 (the spec's diff): passed on as it is.
          controller.enqueue(part as LanguageModelV3StreamPart);
      }
    },
  });
}

function toOtherWarning(warning: { setting: string; message: string }): SharedV3Warning {
  return { type: "other", message: `${warning.setting} is deprecated: ${warning.message}` };
}

/** Files are the one prompt part whose shape changed; Tether's prompts have none, and one must not reach a v4 provider misshapen. */
function assertSharedPrompt(options: LanguageModelV3CallOptions): asserts options is SharedCallOptions {
  for (const message of options.prompt) {
    if (message.role === "system") continue;
    for (const part of message.content) {
      if (part.type === "file" || (part.type === "tool-result" && part.output.type === "content"))
        throw new Error("A prompt with files cannot be sent to a specification v4 model: Tether only adapts the parts both specifications share.");
    }
  }
}
