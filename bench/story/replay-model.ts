import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";

/**
 * A model that asks `model` once for each kind of call and answers every later
 * call of that kind from memory, with the parts it streamed then: the same
 * answers reach the runtime, without the provider's HTTP request or the
 * parsing of its stream. A call's kind is how its prompt ends: the user's
 * words, or which tools' results. Each replayed part is a copy, as a provider
 * makes new ones for every call. Only for benchmarks: a replay does not
 * watch its call's abort signal.
 */
export function replayModel(model: LanguageModelV3): LanguageModelV3 {
  const recorded = new Map<string, Promise<LanguageModelV3StreamPart[]>>();
  return {
    specificationVersion: "v3",
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    async doStream(options) {
      const kind = kindOf(options);
      let answer = recorded.get(kind);
      if (!answer) {
        answer = record(model, options);
        recorded.set(kind, answer);
        // A failed first call is not remembered: the next call of its kind asks the model again.
        answer.catch(() => recorded.delete(kind));
      }
      const parts = await answer;
      let next = 0;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        pull(controller) {
          if (next < parts.length) controller.enqueue({ ...parts[next++]! });
          else controller.close();
        },
      });
      return { stream };
    },
  };
}

function kindOf({ prompt }: LanguageModelV3CallOptions): string {
  const last = prompt.at(-1);
  if (!last) return "";
  if (last.role === "tool") return `tool:${last.content.map((part) => (part.type === "tool-result" ? part.toolName : part.type)).join(",")}`;
  if (last.role === "system") return `system:${last.content}`;
  return `${last.role}:${last.content.map((part) => (part.type === "text" ? part.text : part.type)).join("")}`;
}

async function record(model: LanguageModelV3, options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamPart[]> {
  const { stream } = await model.doStream(options);
  const parts: LanguageModelV3StreamPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    if (value.type === "error") throw value.error;
    parts.push(value);
  }
}
