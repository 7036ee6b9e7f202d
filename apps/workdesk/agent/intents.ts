import type { WorkRequestStatus } from "./work-requests.ts";

/** What a user's message asks for, as far as the offline playbook understands. */
export type Intent =
  | { kind: "navigate"; target: string; newTab?: true }
  | { kind: "navigate-by-id"; screenId: string }
  | { kind: "close"; requestId: string; resolution: string }
  | { kind: "card"; requestId: string }
  | { kind: "search"; query: string; status?: WorkRequestStatus }
  | { kind: "greet" }
  | { kind: "help" }
  | { kind: "unknown" };

// Openings that carry no meaning of their own; stripped, repeatedly, before anything else.
const COURTESY = /^(please|can you|could you|would you|will you|kindly|ok|okay|so|hi|hello|hey|good (?:morning|afternoon|evening))\b\s*/;
// The ways people ask to go somewhere, longest first so "show me" wins over "show".
const NAVIGATE = [
  "navigate to",
  "take me to",
  "bring me to",
  "bring up",
  "pull up",
  "switch to",
  "jump to",
  "go to",
  "goto",
  "show me",
  "show",
  "open up",
  "open",
  "i need to see",
  "i need to open",
  "i need",
  "i want to see",
  "i want to open",
  "i want to go to",
  "i would like to see",
  "i would like to open",
  "i would like to go to",
  "where can i find",
  "where is",
  "where are",
  "let me see",
];
const SEARCH = ["search for", "search", "look for", "look up", "find me", "find", "list", "are there any", "are there", "any"];
const STATUS_WORDS: Array<[RegExp, WorkRequestStatus]> = [
  [/\bin[ -]progress\b/, "in_progress"],
  [/\b(waiting(?: for)? approval|awaiting approval|pending approval)\b/, "waiting_approval"],
  [/\bclosed\b/, "closed"],
  [/\bopen\b/, "open"],
];
// Words that name a place in the app rather than records: "find the dashboard page" is a navigation.
const SCREEN_WORDS = /\b(screen|page|dashboard|approvals|administration|admin|menu|form|list)\b/;
const RECORD_WORDS = /\b(requests?|tickets?)\b/;
const TRAILING = / (screen|page|please|for me|now|then|thanks|thank you)$/;
// "open the work request list in a new tab": where to open it, not part of the screen's name.
const NEW_TAB = / (?:in|into|on) (?:a )?new (?:browser )?(?:tab|window)$/;

export function readIntent(text: string): Intent {
  let said = normalize(text);
  if (!said) return { kind: "unknown" };
  const greeted = COURTESY.test(said) && /^(hi|hello|hey|good )/.test(said);
  for (let previous = ""; previous !== said;) {
    previous = said;
    said = said.replace(COURTESY, "");
  }
  if (!said) return greeted ? { kind: "greet" } : { kind: "unknown" };
  if (/^(help|what can you do|what do you do|who are you|what are you)\b/.test(said)) return { kind: "help" };
  // "show R-1042 as a card": generated UI, where the page can show it.
  const card = /^(?:show|display|render)\s+(?:me\s+)?(?:request\s+)?r-?(\d{4})\s+as\s+an?\s+card(?:\s+please)?$/.exec(said);
  if (card) return { kind: "card", requestId: `R-${card[1]}` };
  const close = /^(?:close|resolve|mark)\s+(?:request\s+)?r-?(\d{4})(?:\s+(?:as|with resolution|:)\s+(.+?))?(?:\s+closed)?$/.exec(said);
  if (close) return { kind: "close", requestId: `R-${close[1]}`, resolution: close[2]?.trim() || "done" };

  const search = startsWith(said, SEARCH);
  if (search !== undefined) {
    const rest = stripTrailing(search);
    // "find the dashboard page" names a screen, not records.
    if (SCREEN_WORDS.test(rest) && !RECORD_WORDS.test(rest.replace(/\bwork request list\b|\brequest list\b/, ""))) {
      return navigate(rest);
    }
    return searchIntent(rest);
  }
  // "show me closed requests" asks for a filtered view of records: a search, not the unfiltered list.
  const shown = startsWith(said, ["show me", "show"]);
  if (shown !== undefined && RECORD_WORDS.test(shown) && STATUS_WORDS.some(([pattern]) => pattern.test(shown))) return searchIntent(shown);

  const target = startsWith(said, NAVIGATE);
  // A screen named by its id ("open MNU-9000"): the script tries it as given, as a model might.
  const screenId = /^mnu-\d{4}$/.exec(target?.replace(/^(screen|the screen) /, "") ?? "");
  if (screenId) return { kind: "navigate-by-id", screenId: screenId[0].toUpperCase() };
  if (target !== undefined) return navigate(target);
  // "what requests are open", "which tickets are closed".
  if (/^(what|which)\b/.test(said) && RECORD_WORDS.test(said)) return searchIntent(said.replace(/^(what|which)\b/, ""));
  return greeted ? { kind: "greet" } : { kind: "unknown" };
}

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/\bwhere's\b/g, "where is")
    .replace(/\bi'd\b/g, "i would")
    .replace(/\bwhat's\b/g, "what is")
    .replace(/[?!.,;:]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The rest of `said` after the first of `verbs` it starts with, or undefined. */
function startsWith(said: string, verbs: string[]): string | undefined {
  for (const verb of verbs) {
    if (said === verb) return "";
    if (said.startsWith(`${verb} `)) return said.slice(verb.length + 1).trim();
  }
  return undefined;
}

function navigate(rest: string): Intent {
  const stripped = stripTrailing(rest);
  const newTab = NEW_TAB.test(stripped);
  const target = stripped
    .replace(NEW_TAB, "")
    .replace(/^(up|me|us) /, "")
    .replace(/^(the|my|our|a|an) /, "");
  const cleaned = stripTrailing(target);
  if (!cleaned) return { kind: "unknown" };
  return newTab ? { kind: "navigate", target: cleaned, newTab: true } : { kind: "navigate", target: cleaned };
}

function stripTrailing(text: string): string {
  let result = text.trim();
  for (let previous = ""; previous !== result;) {
    previous = result;
    result = result.replace(TRAILING, "").trim();
  }
  return result;
}

function searchIntent(rest: string): Intent {
  let query = ` ${rest} `;
  let status: WorkRequestStatus | undefined;
  for (const [pattern, value] of STATUS_WORDS) {
    if (pattern.test(query)) {
      status = value;
      query = query.replace(pattern, " ");
      break;
    }
  }
  query = query
    .replace(
      /\b(all|the|my|any|some|there|work|requests?|tickets?|about|for|with|that|are|is|mention|mentioning|called|named|regarding|please|priority|from|by|opened|filed|requested|raised|of|in)\b/g,
      " ",
    )
    .replace(/\s+/g, " ")
    .trim();
  return { kind: "search", query, ...(status ? { status } : {}) };
}
