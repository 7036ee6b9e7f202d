import type { LanguageModelV3, LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";

/** The server tool the tool-calling stub calls. */
export const STUB_TOOL = "lookup";

/**
 * A model for short, tool-calling runs, the shape most agent runs have: its
 * first call asks for `toolCalls` calls of the `lookup` tool at once; once
 * their results are in the prompt, it answers in `deltas` small text deltas.
 * Every run is then two model calls and `toolCalls` server tool executions:
 * the facts a record writes, and the spans telemetry makes, per run.
 */
export function createToolStubModel(options: { toolCalls: number; deltas: number }): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "bench.stub",
    modelId: "stub-tools",
    supportedUrls: {},
    async doStream(call) {
      const parts = answersTools(call.prompt) ? answer(options.deltas) : askForTools(options.toolCalls);
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
    async doGenerate() {
      throw new Error("The bench stub only streams.");
    },
  };
}

function answersTools(prompt: LanguageModelV3Prompt): boolean {
  return prompt.at(-1)?.role === "tool";
}

const usage = (output: number) => ({
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

function askForTools(count: number): LanguageModelV3StreamPart[] {
  const calls = Array.from({ length: count }, (_, index): LanguageModelV3StreamPart => ({
    type: "tool-call",
    toolCallId: `call-${index + 1}`,
    toolName: STUB_TOOL,
    input: JSON.stringify({ id: `R-${1000 + index}` }),
  }));
  return [
    { type: "stream-start", warnings: [] },
    ...calls,
    { type: "finish", finishReason: { unified: "tool-calls", raw: undefined }, usage: usage(count * 8) },
  ];
}

function answer(deltas: number): LanguageModelV3StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "text-0" },
    ...Array.from({ length: deltas }, (): LanguageModelV3StreamPart => ({ type: "text-delta", id: "text-0", delta: "tok " })),
    { type: "text-end", id: "text-0" },
    { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage: usage(deltas) },
  ];
}
