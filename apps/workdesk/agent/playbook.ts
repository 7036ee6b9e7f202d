import type { NavigateToScreenArgs } from "./navigate-to-screen.ts";
import { parseToolOutcome, type ToolOutcome } from "@tether-agent/tether/protocol";
import type { Playbook, PlaybookResult, ScriptedTurn } from "@tether-agent/tether/server";
import { readIntent } from "./intents.ts";
import { requestCard } from "./request-card.ts";
import type { WorkRequestStatus } from "./work-requests.ts";
import type { ScreenCandidate, ScreenLookup } from "./lookup-screens.ts";

const REAL_MODEL_HINT = "To talk with a real model instead, set TETHER_MODEL (for example openai:gpt-4o-mini with OPENAI_API_KEY) and restart the server.";
const CAN_DO =
  'I can open Workdesk screens for you ("open the work request list", "take me to R-1042"), find work requests ("find badge reader requests") and close one once you approve ("close R-1042 as fixed").';

/**
 * The Workdesk playbook: how the offline model answers. It follows the same
 * path a real model is told to: look the screen up, ask the browser to open
 * the best candidate, then speak from the outcome the browser reported.
 */
export const workdeskPlaybook: Playbook = {
  name: "workdesk",
  respond(conversation) {
    const [latest] = conversation.results.slice(-1);
    // A script that keeps calling tools would loop until the step limit; stop and say so instead.
    if (latest && conversation.turnsSinceUser >= 4) return { text: "I've stopped here so as not to go round in circles. What would you like to do next?" };
    const intent = readIntent(conversation.userText);
    // Where the user asked for the screen travels from their words to the navigation after the lookup.
    const target = intent.kind === "navigate" && intent.newTab ? "new-tab" : undefined;
    if (latest?.toolName === "log_a2ui_event") return afterClick(latest.input as { name?: string; context?: Record<string, unknown> } | undefined);
    if (latest?.toolName === "searchWorkRequests" && intent.kind === "card")
      return showCard(intent.requestId, latest.output as SearchResult, conversation.tools);
    if (latest) return afterResult(latest, conversation.tools, conversation.sinceUser, target);
    switch (intent.kind) {
      case "navigate":
        return { toolCalls: [{ toolName: "lookupScreens", input: { query: intent.target } }] };
      case "navigate-by-id":
        // Trusts the id without a lookup; the browser's own check of the user's screens decides.
        return conversation.tools.includes("navigateToScreen")
          ? { text: `Opening ${intent.screenId}…`, toolCalls: [{ toolName: "navigateToScreen", input: { screenId: intent.screenId } }] }
          : { text: `I can't open screens from here; look for ${intent.screenId} in the menu.` };
      case "card":
        // The record first, from the user's organisation only; the card is drawn from what the search returned.
        return { toolCalls: [{ toolName: "searchWorkRequests", input: { query: intent.requestId } }] };
      case "close":
        return {
          text: `I'll close ${intent.requestId} as "${intent.resolution}" once you approve.`,
          toolCalls: [{ toolName: "closeWorkRequest", input: { requestId: intent.requestId, resolution: intent.resolution } }],
        };
      case "search":
        return {
          text: "Searching your organisation's work requests…",
          toolCalls: [
            {
              toolName: "searchWorkRequests",
              input: { ...(intent.query ? { query: intent.query } : {}), ...(intent.status ? { status: intent.status } : {}) },
            },
          ],
        };
      case "greet":
        return { text: `Hello! ${CAN_DO}` };
      case "help":
        return { text: `I'm the Workdesk assistant, running on Tether's offline playbook model: a script, not a language model. ${CAN_DO} ${REAL_MODEL_HINT}` };
      case "unknown":
        return {
          text: `I'm the offline playbook model, a script rather than a language model, so I didn't understand that. ${CAN_DO} ${REAL_MODEL_HINT}`,
        };
    }
  },
};

function afterResult(result: PlaybookResult, tools: string[], sinceUser: PlaybookResult[] = [], target?: "new-tab"): ScriptedTurn {
  if (result.isError) return { text: `That didn't work: ${errorMessage(result.output)}` };
  switch (result.toolName) {
    case "lookupScreens":
      return afterLookup(result.output as ScreenLookup, tools, target);
    case "navigateToScreen":
      return afterNavigation(
        result.input as NavigateToScreenArgs,
        parseToolOutcome(result.output),
        lookedUp(sinceUser, (result.input as NavigateToScreenArgs | undefined)?.screenId),
      );
    case "searchWorkRequests":
      return afterSearch(result.output as SearchResult);
    case "closeWorkRequest":
      return afterClose(result.input as { requestId?: string } | undefined, result.output);
    case "render_a2ui":
      return (result.output as { rendered?: boolean } | undefined)?.rendered
        ? { text: "Here it is. Open detail or close it as fixed from the card." }
        : { text: "I couldn't show that as a card." };
    default:
      return { text: "Done." };
  }
}

function afterLookup(lookup: ScreenLookup, tools: string[], target?: "new-tab"): ScriptedTurn {
  const [best] = lookup.candidates;
  if (!best) {
    const offer = (lookup.available ?? []).map((screen) => screen.name).join(", ");
    return { text: `I couldn't find a screen matching "${lookup.query}" among the screens you can open.${offer ? ` You can open: ${offer}.` : ""}` };
  }
  if (!tools.includes("navigateToScreen")) {
    return { text: `${best.name} is at ${best.path} (${best.route}). This assistant can't open screens here, so please go there from the menu.` };
  }
  const missing = lookup.recordNotFound ? `${lookup.recordNotFound} isn't a work request in ${lookup.orgScope}, so I can't show it. ` : "";
  return {
    text: `${missing}Opening ${best.name}${target === "new-tab" ? " in a new tab" : ""}…`,
    toolCalls: [{ toolName: "navigateToScreen", input: { ...navigationArgs(best, lookup.orgScope), ...(target ? { target } : {}) } }],
  };
}

function navigationArgs(candidate: ScreenCandidate, orgScope: string): NavigateToScreenArgs {
  return {
    screenId: candidate.screenId,
    screenName: candidate.name,
    routeHint: candidate.route,
    orgScope,
    ...(candidate.payload ? { payload: candidate.payload } : {}),
  };
}

/** The lookup candidate a navigation came from, for the route to give by hand. */
function lookedUp(results: PlaybookResult[], screenId: string | undefined): ScreenCandidate | undefined {
  for (const result of [...results].reverse()) {
    if (result.toolName !== "lookupScreens" || result.isError) continue;
    const candidate = (result.output as ScreenLookup).candidates?.find((entry) => entry.screenId === screenId);
    if (candidate) return candidate;
  }
  return undefined;
}

/** Speaks only from what the browser reported: the outcome, never the request. */
function afterNavigation(args: NavigateToScreenArgs | undefined, outcome: ToolOutcome | undefined, candidate?: ScreenCandidate): ScriptedTurn {
  const name = args?.screenName ?? args?.screenId ?? "that screen";
  const route = typeof outcome?.data?.route === "string" ? outcome.data.route : (args?.routeHint ?? candidate?.route);
  const path = typeof outcome?.data?.path === "string" ? outcome.data.path : candidate?.path;
  const byHand = route ? ` To get there yourself, go to ${path ? `${path} (${route})` : route}.` : "";
  if (!outcome)
    return { text: `I asked the browser to open ${name}, but it didn't report back in a form I understand, so I can't say whether it opened.${byHand}` };
  switch (outcome.status) {
    case "succeeded":
      // A new tab opened with the screen's route; whether the screen shows there, this page cannot see.
      if (args?.target === "new-tab") return { text: `I've opened a new tab for ${name}${route ? ` (${route})` : ""}.` };
      // Only as far as the browser got: requested is not open.
      if (outcome.stage === "displayed") return { text: `${name} is open now.` };
      if (outcome.stage === "switched") return { text: `${name} is showing; its data is still loading.` };
      return { text: `I've asked the browser to open ${name}; it hasn't confirmed the screen is showing yet.${byHand}` };
    case "failed":
      if (outcome.reason === "access_denied")
        return { text: `I couldn't open ${name}: your account doesn't have access to it. If you need it, ask an administrator.` };
      if (outcome.reason === "not_found") return { text: `I couldn't open ${name}: it isn't in your menu.` };
      return { text: `I couldn't open ${name}${outcome.message ? `: ${outcome.message}` : "."}${byHand}` };
    case "blocked":
      if (outcome.reason === "blocked_by_mode") {
        return {
          text: `I can't change the screen while the assistant is covering it (full-screen or as a window).${byHand || ` Look for ${name} in the menu.`}`,
        };
      }
      if (outcome.reason === "org_scope_mismatch")
        return { text: `I didn't open ${name}: it was requested for another organisation than the one you're signed in to.` };
      return { text: `Opening ${name} was blocked${outcome.message ? `: ${outcome.message}` : "."}${byHand}` };
    case "cancelled":
      return { text: `Opening ${name} was cancelled.` };
    case "unknown":
      return {
        text: `I asked to open ${name}, but I can't tell whether it opened${outcome.reason === "page_reloaded" ? " because the page was reloaded" : ""}.${byHand}`,
      };
  }
}

interface SearchResult {
  orgScope: string;
  query: string;
  status?: string;
  total: number;
  requests: Array<{ id: string; title: string; status: string; priority: string; requester: string }>;
}

function afterSearch(result: SearchResult): ScriptedTurn {
  const kind = `${result.status ? `${result.status.replace("_", " ")} ` : ""}work request`;
  const matching = result.query ? ` matching "${result.query}"` : "";
  if (result.total === 0) return { text: `There are no ${kind}s in ${result.orgScope}${matching}.` };
  const lines = result.requests.map(
    (request) => `${request.id} "${request.title}" (${request.status.replace("_", " ")}, ${request.priority} priority, ${request.requester})`,
  );
  const more = result.total > result.requests.length ? ` …and ${result.total - result.requests.length} more.` : "";
  return { text: `I found ${result.total} ${kind}${result.total === 1 ? "" : "s"} in ${result.orgScope}${matching}: ${lines.join("; ")}.${more}` };
}

/** Speaks from the tool's result: closed only when the result says closed. */
function afterClose(args: { requestId?: string } | undefined, output: unknown): ScriptedTurn {
  const requestId = args?.requestId ?? "the request";
  const result = output as { closed?: boolean; alreadyClosed?: boolean; resolution?: string; closedAt?: string; status?: string; comment?: string } | undefined;
  if (result?.closed) return { text: `${requestId} is closed (resolution: ${result.resolution}).` };
  if (result?.alreadyClosed) {
    const how = [result.resolution ? `resolution: ${result.resolution}` : "", result.closedAt ? `closed ${result.closedAt.slice(0, 10)}` : ""]
      .filter(Boolean)
      .join(", ");
    return { text: `${requestId} was already closed${how ? ` (${how})` : ""}, so I didn't close it again.` };
  }
  if (result?.status === "rejected")
    return { text: `I didn't close ${requestId}: the approval was rejected${result.comment ? ` ("${result.comment}")` : ""}.` };
  if (result?.status === "cancelled") return { text: `I left ${requestId} open: the approval was cancelled.` };
  return { text: `I can't tell whether ${requestId} was closed.` };
}

/** R-1042 as a card, where the page renders generated UI; in words where it does not. */
function showCard(requestId: string, search: SearchResult, tools: string[]): ScriptedTurn {
  const request = search.requests?.find((found) => found.id === requestId);
  if (!request) return { text: `There is no work request ${requestId} in ${search.orgScope}.` };
  if (!tools.includes("render_a2ui")) {
    return {
      text: `${request.id} "${request.title}" is ${request.status.replace("_", " ")}, ${request.priority} priority, requested by ${request.requester}.`,
    };
  }
  return {
    toolCalls: [
      {
        toolName: "render_a2ui",
        input: requestCard({ ...request, status: request.status as WorkRequestStatus, priority: request.priority as "low" | "medium" | "high" }),
      },
    ],
  };
}

/** A click on the card: the button's action, with the request it carries, starts what the button says. */
function afterClick(action: { name?: string; context?: Record<string, unknown> } | undefined): ScriptedTurn {
  const requestId = typeof action?.context?.requestId === "string" ? action.context.requestId : undefined;
  if (!requestId) return { text: "I couldn't tell which request that button was for." };
  if (action?.name === "open_detail") return { text: `Opening ${requestId}…`, toolCalls: [{ toolName: "lookupScreens", input: { query: requestId } }] };
  if (action?.name === "close_request") {
    const resolution = typeof action.context?.resolution === "string" ? action.context.resolution : "fixed";
    return {
      text: `I'll close ${requestId} as "${resolution}" once you approve.`,
      toolCalls: [{ toolName: "closeWorkRequest", input: { requestId, resolution } }],
    };
  }
  return { text: `That button (${action?.name ?? "unnamed"}) is not one I know what to do with.` };
}

/** A Tether tool's error (`{ error: { message } }`), or an ADK tool's, which is its message alone (`{ error: "…" }`, unwrapped). */
function errorMessage(output: unknown): string {
  if (typeof output === "string" && output) return output;
  const error = (output as { error?: { message?: unknown } })?.error;
  return typeof error?.message === "string" ? error.message : "the tool reported an error.";
}
