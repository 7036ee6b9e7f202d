import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";

/** The parts of one answer, in the groups they arrived in: one group per turn of the event loop. */
type Recording = LanguageModelV3StreamPart[][];

/**
 * A model that asks `model` once for each kind of call and answers every later
 * call of that kind from memory, with the parts it streamed then: the same
 * answers reach the runtime, without the provider's HTTP request or the
 * parsing of its stream. A call's kind is how its prompt ends: the user's
 * words, or which tools' results.
 *
 * Parts that arrived in separate turns of the event loop (separate socket
 * reads) are replayed in separate turns, since the runtime batches what one
 * turn brings. Each replayed part is a new object; what it holds (its usage,
 * a timestamp) is shared between replays, and frozen. Only for benchmarks: a
 * replay does not watch its call's abort signal.
 */
export function replayModel(model: LanguageModelV3): LanguageModelV3 {
  const recordings = new Map<string, Promise<Recording>>();
  return {
    specificationVersion: "v3",
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: model.supportedUrls,
    doGenerate: (options) => model.doGenerate(options),
    async doStream(options) {
      const kind = kindOf(options);
      let recording = recordings.get(kind);
      if (!recording) {
        recording = record(model, options);
        recordings.set(kind, recording);
        // A failed first call is not remembered: the next call of its kind asks the model again.
        recording.catch(() => recordings.delete(kind));
      }
      const groups = await recording;
      let next = 0;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async pull(controller) {
          if (next > 0) await new Promise((resolve) => setImmediate(resolve));
          const group = groups[next++];
          if (!group) return controller.close();
          for (const part of group) controller.enqueue({ ...part });
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

/** Reads the model's answer whole, noting which turn of the event loop each part arrived in. */
async function record(model: LanguageModelV3, options: LanguageModelV3CallOptions): Promise<Recording> {
  let turn = 0;
  let ticker = setImmediate(function tick() {
    turn++;
    ticker = setImmediate(tick);
  });
  try {
    const { stream } = await model.doStream(options);
    const groups: Recording = [];
    let groupTurn = -1;
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return groups;
      if (value.type === "error") throw value.error;
      if (turn !== groupTurn || groups.length === 0) {
        groups.push([]);
        groupTurn = turn;
      }
      groups.at(-1)!.push(deepFreeze(value));
    }
  } finally {
    clearImmediate(ticker);
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
