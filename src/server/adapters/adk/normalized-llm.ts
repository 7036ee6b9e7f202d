import { BaseLlm, generateClientFunctionCallId, type LlmRequest, type LlmResponse } from "@google/adk";
import type { Context } from "@ag-ui/core";

type Part = NonNullable<NonNullable<LlmResponse["content"]>["parts"]>[number];
type UsageMetadata = NonNullable<LlmResponse["usageMetadata"]>;

/**
 * The agent's own model, wrapped so ADK never sees what makes it misbehave:
 * - calls never appear in a partial response (ADK runs a call it sees in a partial, and again in the
 *   final response, under another id: a tool run twice, two confirmation requests for one call);
 * - every call has an id unique in the thread before ADK sees it: the model's own when it is new,
 *   one ADK mints otherwise (a provider that reuses `call_0` across turns gets its results mispaired);
 * - calls to names ADK does not know come last in their turn (ADK stops at the first such call and
 *   would never run the known ones after it), and every call's id is kept in `callIds`: a call the
 *   model named like ADK's own request (`adk_request_confirmation`) is still the model's call;
 * - a response never holds a function result (only a tool gives one);
 * - the request carries the client's AG-UI context after the instructions, as a model's prompt does,
 *   and the person's message that came with an approval after the approved call's result (ADK drops
 *   whatever lies between a call and its result, and the confirmation must be ADK's latest event).
 * It also keeps each call's token usage for the run's record, and whether the model itself failed
 * (ADK reports its own failures as a model's).
 */
export class NormalizedLlm extends BaseLlm {
  readonly usage: UsageMetadata[] = [];
  /** The ids of the calls the model made (ADK's own requests are not among them). */
  readonly callIds = new Set<string>();
  /** Model calls made, for the step's bound. */
  calls = 0;
  /** The model threw or answered with an error (not ADK around it). */
  failed = false;
  /** The person's message that came with an approval, for the step's model requests. */
  lateText: string | undefined;
  // Where the person's late message goes in each request: after what the step's first request held.
  private lateAt: number | undefined;

  constructor(
    private readonly inner: BaseLlm,
    private readonly options: { usedIds: Set<string>; context: Context[] },
  ) {
    super({ model: inner.model });
  }

  override async *generateContentAsync(request: LlmRequest, stream?: boolean, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    this.calls++;
    withContext(request, this.options.context);
    this.withLateText(request);
    let usage: UsageMetadata | undefined;
    try {
      yield* this.relay(request, stream, abortSignal, (given) => (usage = given));
    } catch (error) {
      this.failed = true;
      throw error;
    }
    if (usage) this.usage.push(usage);
  }

  private async *relay(request: LlmRequest, stream: boolean | undefined, abortSignal: AbortSignal | undefined, onUsage: (usage: UsageMetadata) => void) {
    for await (const response of this.inner.generateContentAsync(request, stream, abortSignal)) {
      // Streamed usage is cumulative: the last one a call reports is its total.
      if (response.usageMetadata) onUsage(response.usageMetadata);
      if (response.errorCode && response.errorCode !== "STOP") this.failed = true;
      const given = response.content?.parts;
      if (!given?.some((part) => part.functionCall || part.functionResponse)) {
        yield response;
        continue;
      }
      // A result is a tool's to give: one the model writes itself is dropped, or it would stand for the call's.
      const parts = given.filter((part) => !part.functionResponse);
      if (response.partial) {
        const kept = parts.filter((part) => !part.functionCall);
        if (kept.length > 0) yield { ...response, content: { ...response.content, parts: kept } };
        continue;
      }
      yield { ...response, content: { ...response.content, parts: this.settleCalls(parts, request) } };
    }
  }

  private withLateText(request: LlmRequest): void {
    const text = this.lateText;
    if (!text) return;
    this.lateAt ??= request.contents.length;
    request.contents.splice(Math.min(this.lateAt, request.contents.length), 0, { role: "user", parts: [{ text }] });
  }

  override connect(request: LlmRequest): ReturnType<BaseLlm["connect"]> {
    return this.inner.connect(request);
  }

  private settleCalls(parts: Part[], request: LlmRequest): Part[] {
    const known: Part[] = [];
    const unknown: Part[] = [];
    for (const part of parts) {
      if (!part.functionCall) {
        known.push(part);
        continue;
      }
      const given = part.functionCall.id;
      const id = given && !this.options.usedIds.has(given) ? given : generateClientFunctionCallId();
      this.options.usedIds.add(id);
      this.callIds.add(id);
      const settled = { ...part, functionCall: { ...part.functionCall, id } };
      (part.functionCall.name && part.functionCall.name in request.toolsDict ? known : unknown).push(settled);
    }
    return [...known, ...unknown];
  }
}

/** The client's context as the model's prompt has it: a line per item after the instructions. */
function withContext(request: LlmRequest, context: Context[]): void {
  if (context.length === 0) return;
  const text = context.map((item) => `${item.description}: ${item.value}`).join("\n\n");
  const config = (request.config ??= {});
  const given = config.systemInstruction;
  if (given === undefined) config.systemInstruction = text;
  else if (typeof given === "string") config.systemInstruction = `${given}\n\n${text}`;
  else if (Array.isArray(given)) config.systemInstruction = [...given, { text }];
  else if ("parts" in given) config.systemInstruction = { ...given, parts: [...(given.parts ?? []), { text }] };
  else config.systemInstruction = [given as Part, { text }];
}
