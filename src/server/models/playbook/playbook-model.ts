import { randomUUID } from "node:crypto";
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream } from "ai";
import { readConversation, type PlaybookConversation } from "./conversation.ts";
import { turnParts, type ScriptedTurn } from "./turn-parts.ts";

/** A demo app's playbook: from the conversation so far to the next turn. */
export interface Playbook {
  /** Shown in the UI and the logs: which playbook is answering. */
  name: string;
  respond(conversation: PlaybookConversation): ScriptedTurn;
}

export interface PlaybookModelOptions {
  /** Pause between stream parts, so the UI streams as with a real model. Default 12 ms; 0 in tests. */
  chunkDelayMs?: number;
}

export const PLAYBOOK_PROVIDER = "tether.playbook";

/**
 * The offline playbook model: deterministic, no network, no weights. It
 * implements the AI SDK's language model interface, so the runtime treats it
 * like any provider, and streams text and chunked tool arguments like one.
 * It is a script, and says so when asked anything off it.
 */
export function createPlaybookModel(playbook: Playbook, options: PlaybookModelOptions = {}): LanguageModelV3 {
  const delay = options.chunkDelayMs ?? 12;
  let calls = 0;
  // Unique across processes, as a provider's are: an app may key an effect on a call's id (an order's request id).
  const prefix = randomUUID().slice(0, 8);
  const stream = (call: LanguageModelV3CallOptions) => {
    const offered = (call.tools ?? []).flatMap((tool) =>
      tool.type === "function" ? [{ name: tool.name, description: tool.description ?? "", inputSchema: tool.inputSchema }] : [],
    );
    const turn = playbook.respond(readConversation(call.prompt, offered));
    const parts = turnParts(turn, { newToolCallId: () => `call_pb_${prefix}_${++calls}` });
    return simulateReadableStream<LanguageModelV3StreamPart>({ chunks: parts, chunkDelayInMs: delay || null, initialDelayInMs: delay ? delay * 4 : null });
  };
  return {
    specificationVersion: "v3",
    provider: PLAYBOOK_PROVIDER,
    modelId: `playbook:${playbook.name}`,
    supportedUrls: {},
    async doStream(call) {
      return { stream: stream(call) };
    },
    async doGenerate() {
      // A programmer error: only a caller outside Tether can reach it (Tether's run loop never calls doGenerate).
      throw new Error("The offline playbook model only streams; Tether always calls doStream.");
    },
  };
}
