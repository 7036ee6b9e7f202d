import type { LlmRequest } from "@google/adk";
import type { PlaybookConversation, PlaybookResult } from "../../../models/playbook/index.ts";
import { declaredFunctions, systemText, textOf, type AdkContent, type AdkPart } from "./adk-request.ts";

/** The tool call a UI action is recorded as (genui/surfaces/ui-action.ts): the person's turn, as a message is. */
const UI_ACTION_TOOL = "log_a2ui_event";

type FunctionCall = NonNullable<AdkPart["functionCall"]>;
type FunctionResponse = NonNullable<AdkPart["functionResponse"]>;

interface OpenCall {
  call: FunctionCall;
  answered: boolean;
}

/**
 * The conversation a Tether playbook decides on, read from ADK's request as
 * `readConversation` reads an AI SDK prompt: the latest user text, the tool
 * results after the model's last content, since the user, and in all, the
 * system text and the functions offered.
 */
export function readAdkConversation(request: LlmRequest): PlaybookConversation {
  let userText = "";
  const userTexts: string[] = [];
  let results: PlaybookResult[] = [];
  let sinceUser: PlaybookResult[] = [];
  const all: PlaybookResult[] = [];
  let turnsSinceUser = 0;
  const callsById = new Map<string, FunctionCall>();
  let latestCalls: OpenCall[] = [];
  let previousRole: string | undefined;
  for (const content of request.contents) {
    const parts = content.parts ?? [];
    const calls = parts.flatMap((part) => (part.functionCall ? [part.functionCall] : []));
    if (content.role === "model") {
      if (calls.length > 0 && calls.every((call) => call.name === UI_ACTION_TOOL)) {
        results = [];
        sinceUser = [];
        turnsSinceUser = 0;
      } else {
        results = [];
        // ADK stores a streamed Gemini turn as two model contents (its text, then its calls): one turn, counted once.
        if (previousRole !== "model") turnsSinceUser++;
      }
      if (calls.length > 0) latestCalls = calls.map((call) => ({ call, answered: false }));
      for (const call of calls) if (call.id) callsById.set(call.id, call);
    } else {
      for (const part of parts) {
        if (!part.functionResponse) continue;
        const result = readResult(part.functionResponse, pairCall(part.functionResponse, callsById, latestCalls));
        results.push(result);
        sinceUser.push(result);
        all.push(result);
      }
      if (hasText(content)) {
        userText = textOf(content);
        userTexts.push(userText);
        results = [];
        sinceUser = [];
        turnsSinceUser = 0;
      }
    }
    previousRole = content.role;
  }
  const offered = declaredFunctions(request);
  return { userText, userTexts, results, sinceUser, all, system: systemText(request), tools: offered.map((tool) => tool.name), offered, turnsSinceUser };
}

/**
 * The call a response answers. By id when the response has one. ADK strips
 * the ids it minted (`adk-…`, removeClientFunctionCallId in
 * content_processor_utils.js) from calls and responses alike before a model
 * sees the request, so a call without a provider id comes with none: then,
 * and only then, the response is paired by its name with the first
 * unanswered call of that name in the latest model content with calls. ADK
 * places each call content's responses right after it, but not always in the
 * order of the calls (a browser's result merged after a server tool's), so
 * position alone would pair the wrong call; within one name, order is all
 * that is left.
 */
function pairCall(response: FunctionResponse, callsById: Map<string, FunctionCall>, latestCalls: OpenCall[]): FunctionCall | undefined {
  const byId = response.id ? callsById.get(response.id) : undefined;
  const open = latestCalls.find((entry) => (byId ? entry.call === byId : !entry.answered && entry.call.name === response.name));
  if (open) open.answered = true;
  return byId ?? open?.call;
}

/**
 * A response as the playbook reads a tool result. ADK wraps what is not an
 * object: a primitive as `{ result }`, an array as `{ results }`, a tool that
 * threw as `{ error }`; unwrapped here, so the output is what the tool
 * returned. Text is parsed when it is JSON, as `readConversation` does.
 */
function readResult(response: FunctionResponse, call: FunctionCall | undefined): PlaybookResult {
  const body = response.response;
  const [only, ...more] = Object.keys(body ?? {});
  const wrapped = body !== undefined && more.length === 0 ? only : undefined;
  const unwrap = wrapped === "result" || wrapped === "error" || (wrapped === "results" && Array.isArray(body?.results));
  const output = unwrap ? parseMaybe(body?.[wrapped]) : body;
  return {
    // Empty when ADK stripped the id it minted (see pairCall): a playbook decides on names, inputs and outputs.
    toolCallId: response.id ?? call?.id ?? "",
    toolName: response.name ?? call?.name ?? "",
    input: call?.args,
    output,
    isError: wrapped === "error",
  };
}

function hasText(content: AdkContent): boolean {
  return (content.parts ?? []).some((part) => part.text !== undefined && !part.thought);
}

function parseMaybe(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
