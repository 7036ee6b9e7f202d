import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3FunctionTool, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "ai-sdk-provider-4";
import { describe, expect, it } from "vitest";
import { defineAgent } from "../agent/index.ts";
import { toLanguageModelV3 } from "./language-model-v4.ts";

/** A v4 model, typed by AI SDK 7's own spec, that streams `parts` and keeps what it was asked. */
function v4Model(parts: LanguageModelV4StreamPart[]) {
  const calls: LanguageModelV4CallOptions[] = [];
  const model: LanguageModelV4 = {
    specificationVersion: "v4",
    provider: "test.chat",
    modelId: "test-model",
    supportedUrls: {},
    async doGenerate() {
      throw new Error("not used");
    },
    async doStream(options) {
      calls.push(options);
      return { stream: new ReadableStream({ start: (controller) => (parts.forEach((part) => controller.enqueue(part)), controller.close()) }) };
    },
  };
  return { model, calls };
}

const usage = { inputTokens: { total: 12, noCache: 12, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const CALL: LanguageModelV3CallOptions = { prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] };

async function read(model: LanguageModelV3, call = CALL): Promise<LanguageModelV3StreamPart[]> {
  const parts: LanguageModelV3StreamPart[] = [];
  const reader = (await model.doStream(call)).stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
  return parts;
}

describe("toLanguageModelV3", () => {
  it("returns a v3 model as it is", () => {
    const v3 = { specificationVersion: "v3", provider: "p", modelId: "m", supportedUrls: {}, doStream: async () => ({ stream: new ReadableStream() }) };
    expect(toLanguageModelV3(v3 as unknown as LanguageModelV3)).toBe(v3);
  });

  it("gives defineAgent's run loop a v3 model with the v4 model's name, and the call Tether made", async () => {
    const { model, calls } = v4Model([{ type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } }]);
    const agent = defineAgent({ id: "v4", model });
    expect(agent.model).toMatchObject({ specificationVersion: "v3", provider: "test.chat", modelId: "test-model" });
    const tools: LanguageModelV3FunctionTool[] = [{ type: "function", name: "lookup", inputSchema: { type: "object" } }];
    await read(agent.model!, { ...CALL, tools, toolChoice: { type: "auto" } });
    expect(calls).toEqual([{ ...CALL, tools, toolChoice: { type: "auto" } }]);
  });

  it("passes the parts both specs share as they are", async () => {
    const shared: LanguageModelV4StreamPart[] = [
      { type: "response-metadata", id: "resp_1", modelId: "test-model" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "Hello" },
      { type: "text-end", id: "t1", providerMetadata: { test: { kept: true } } },
      { type: "tool-input-start", id: "call_1", toolName: "lookup" },
      { type: "tool-input-delta", id: "call_1", delta: '{"q":' },
      { type: "tool-input-delta", id: "call_1", delta: '"x"}' },
      { type: "tool-input-end", id: "call_1" },
      { type: "tool-call", toolCallId: "call_1", toolName: "lookup", input: '{"q":"x"}' },
      { type: "finish", usage, finishReason: { unified: "tool-calls", raw: "tool_calls" } },
    ];
    expect(await read(toLanguageModelV3(v4Model(shared).model))).toEqual(shared);
  });

  it("drops the parts v3 has no word for", async () => {
    const { model } = v4Model([
      { type: "ping" },
      { type: "custom", kind: "openai.compaction" },
      { type: "reasoning-file", mediaType: "image/png", data: { type: "data", data: "aGk=" } },
      { type: "text-delta", id: "t1", delta: "Hi" },
    ]);
    expect(await read(toLanguageModelV3(model))).toEqual([{ type: "text-delta", id: "t1", delta: "Hi" }]);
  });

  it("leaves out a tool input streamed as raw text: the closing tool-call carries it as JSON", async () => {
    const { model } = v4Model([
      { type: "tool-input-start", id: "call_2", toolName: "apply_patch", inputEncoding: "text" },
      { type: "tool-input-delta", id: "call_2", delta: "*** Begin Patch" },
      { type: "tool-input-end", id: "call_2" },
      { type: "tool-call", toolCallId: "call_2", toolName: "apply_patch", input: JSON.stringify("*** Begin Patch") },
    ]);
    expect(await read(toLanguageModelV3(model))).toEqual([
      { type: "tool-input-start", id: "call_2", toolName: "apply_patch" },
      { type: "tool-input-end", id: "call_2" },
      { type: "tool-call", toolCallId: "call_2", toolName: "apply_patch", input: '"*** Begin Patch"' },
    ]);
  });

  it("says other for an interrupted stream, unwraps a file's bytes, drops a file's URL, and words a deprecation as another warning", async () => {
    const { model } = v4Model([
      {
        type: "stream-start",
        warnings: [
          { type: "deprecated", setting: "maxTokens", message: "use maxOutputTokens" },
          { type: "other", message: "kept" },
        ],
      },
      { type: "file", mediaType: "image/png", data: { type: "data", data: "aGk=" } },
      { type: "file", mediaType: "image/png", data: { type: "url", url: new URL("https://example.com/a.png") } },
      { type: "finish", usage, finishReason: { unified: "interrupted", raw: undefined } },
    ]);
    expect(await read(toLanguageModelV3(model))).toEqual([
      {
        type: "stream-start",
        warnings: [
          { type: "other", message: "maxTokens is deprecated: use maxOutputTokens" },
          { type: "other", message: "kept" },
        ],
      },
      { type: "file", mediaType: "image/png", data: "aGk=" },
      { type: "finish", usage, finishReason: { unified: "other", raw: undefined } },
    ]);
  });

  it("refuses a prompt with a file before the provider sees it: v4 shapes files differently", async () => {
    const { model, calls } = v4Model([]);
    const withFile: LanguageModelV3CallOptions = { prompt: [{ role: "user", content: [{ type: "file", data: "aGk=", mediaType: "image/png" }] }] };
    await expect(toLanguageModelV3(model).doStream(withFile)).rejects.toThrow(/files cannot be sent to a specification v4 model/);
    expect(calls).toEqual([]);
  });
});
