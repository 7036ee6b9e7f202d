import { isChatCompletionBody, type ChatCompletionRequest, type ChatMessage, type LLMock } from "@copilotkit/aimock";
import type { ProviderWire } from "./provider-wires.ts";

/**
 * The Workdesk story as a real model would play it, written once as aimock
 * fixtures and served in each provider's wire format. Fixtures are scoped to
 * the provider's model id, so one aimock serves all four providers.
 */
export const STORY = {
  ask: "open the work request list",
  lookupArguments: { query: "work request list" },
  navigateArguments: { screenId: "MNU-3120", screenName: "Work request list", routeHint: "/work-requests", orgScope: "ORG-01" },
  opening: "Opening Work request list for you.",
  opened: "Work request list is open now.",
  denied: "I couldn't open Work request list: your account doesn't have access to it. You can go there by hand: /work-requests.",
  /** Token counts each step reports, in the names aimock maps onto every provider's usage fields. */
  usage: {
    lookup: { input_tokens: 120, output_tokens: 14 },
    navigate: { input_tokens: 310, output_tokens: 42 },
    reply: { input_tokens: 380, output_tokens: 11 },
  },
  /** Small enough that the navigate arguments arrive in many pieces, cut in the middle of strings. */
  chunkSize: 7,
} as const;

/** Fixture tool calls carry their arguments as JSON strings: aimock's Anthropic and Gemini paths parse them from that. */
export function toolCall(wire: ProviderWire, name: string, args: unknown, idSuffix = "") {
  const id = wire.toolCallId(name);
  return { name, arguments: JSON.stringify(args), ...(id ? { id: `${id}${idSuffix}` } : {}) };
}

export function addStoryFixtures(mock: LLMock, wire: ProviderWire): void {
  const model = wire.modelId;
  // First match wins: the continuations (the browser's outcome is the last message) come first.
  mock.addFixture({ match: { model, toolResultContains: '"displayed"' }, response: { content: STORY.opened, usage: STORY.usage.reply } });
  mock.addFixture({ match: { model, toolResultContains: '"access_denied"' }, response: { content: STORY.denied, usage: STORY.usage.reply } });
  // The lookup's result came back: say what is happening and ask the browser to navigate.
  mock.addFixture({
    match: { model, toolResultContains: '"MNU-3120"' },
    response: { content: STORY.opening, toolCalls: [toolCall(wire, "navigateToScreen", STORY.navigateArguments)], usage: STORY.usage.navigate },
    chunkSize: STORY.chunkSize,
  });
  mock.addFixture({
    match: { model, userMessage: /^open the work request list$/, hasToolResult: false },
    response: { toolCalls: [toolCall(wire, "lookupScreens", STORY.lookupArguments)], usage: STORY.usage.lookup },
    chunkSize: STORY.chunkSize,
  });
}

/** The chat requests aimock received from this provider, normalised to the Chat Completions shape, oldest first. */
export function providerRequests(mock: LLMock, wire: ProviderWire): Array<{ status: number; body: ChatCompletionRequest }> {
  return mock
    .getRequests()
    .filter((entry) => wire.streamPath.test(entry.path) && isChatCompletionBody(entry.body) && entry.body.model === wire.modelId)
    .map((entry) => ({ status: entry.response.status, body: entry.body as ChatCompletionRequest }));
}

/** The text of a normalised message. */
export function textOf(message: ChatMessage | undefined): string {
  if (!message) return "";
  if (typeof message.content === "string") return message.content;
  return (message.content ?? []).map((part) => part.text ?? "").join("");
}

/**
 * Whether some boundary between the deltas falls inside a JSON string
 * literal: the arguments were split mid-string, not at token boundaries.
 */
export function splitsInsideString(deltas: string[]): boolean {
  let inString = false;
  let escaped = false;
  for (const [index, delta] of deltas.entries()) {
    for (const character of delta) {
      if (escaped) escaped = false;
      else if (character === "\\") escaped = inString;
      else if (character === '"') inString = !inString;
    }
    if (inString && index < deltas.length - 1) return true;
  }
  return false;
}
