import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from "@google/adk";
import type { Playbook } from "../../../models/playbook/index.ts";
import { playResponses } from "./play-responses.ts";
import { readAdkConversation } from "./read-adk-conversation.ts";
import { turnResponses } from "./turn-responses.ts";

export interface PlaybookLlmOptions {
  /** Pause before each response, so the UI streams as with a real model. Default 12 ms, as createPlaybookModel; 0 in tests. */
  chunkDelayMs?: number;
}

/**
 * Tether's offline playbook model in ADK's model slot: deterministic, no
 * network, no weights. The same `Playbook` that plays a Tether agent reads
 * the conversation from ADK's request, so an ADK agent plays the same story.
 *
 * @example
 * const agent = new LlmAgent({ name: "workdesk", model: createPlaybookLlm(workdeskPlaybook), tools });
 */
export function createPlaybookLlm(playbook: Playbook, options: PlaybookLlmOptions = {}): BaseLlm {
  return new PlaybookAdkLlm(playbook, options.chunkDelayMs ?? 12);
}

class PlaybookAdkLlm extends BaseLlm {
  private readonly playbook: Playbook;
  private readonly delayMs: number;

  constructor(playbook: Playbook, delayMs: number) {
    super({ model: `playbook:${playbook.name}` });
    this.playbook = playbook;
    this.delayMs = delayMs;
  }

  async *generateContentAsync(request: LlmRequest, stream = false, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    const turn = this.playbook.respond(readAdkConversation(request));
    // No call ids of the playbook's own: ADK mints a unique `adk-…` per call, where a script's fixed id would repeat across turns.
    const toolCalls = turn.toolCalls?.map(({ toolName, input }) => ({ toolName, input }));
    yield* playResponses(turnResponses({ ...turn, ...(toolCalls ? { toolCalls } : {}) }, { stream }), { delayMs: this.delayMs, signal: abortSignal });
  }

  async connect(): Promise<BaseLlmConnection> {
    throw new Error(`The offline playbook model "${this.playbook.name}" does not support live (bidi) connections: connect() is not supported.`);
  }
}
