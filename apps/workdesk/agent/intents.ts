import { WORK_REQUEST_STATUSES, type WorkRequestStatus } from "./work-requests.ts";

/** What a user's message asks for, as far as the offline playbook understands. */
export type Intent =
  | { kind: "navigate"; target: string }
  | { kind: "search"; query: string; status?: WorkRequestStatus }
  | { kind: "greet" }
  | { kind: "help" }
  | { kind: "unknown" };

// The ways people ask to go somewhere, longest first so "show me" wins over "show".
const NAVIGATE = [
  "can you take me to",
  "could you open",
  "can you open",
  "please open",
  "navigate to",
  "take me to",
  "bring me to",
  "bring up",
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
  "i need the",
  "i need",
  "i want to see",
  "i want to go to",
  "where can i find",
  "where is",
  "where are",
  "let me see",
];
const SEARCH = ["search for", "search", "look for", "look up", "find me", "find", "which requests", "any requests", "list"];
const STATUS_WORDS: Array<[RegExp, WorkRequestStatus]> = [
  [/\bin[ -]progress\b/, "in_progress"],
  [/\b(waiting(?: for)? approval|awaiting approval|pending approval)\b/, "waiting_approval"],
  [/\bclosed\b/, "closed"],
  [/\bopen\b/, "open"],
];

export function readIntent(text: string): Intent {
  const said = text.toLowerCase().replace(/[?!.,;]+/g, " ").replace(/\s+/g, " ").trim();
  if (!said) return { kind: "unknown" };
  if (/^(hi|hello|hey|good (morning|afternoon|evening))\b/.test(said)) return { kind: "greet" };
  if (/^(help|what can you do|what do you do|who are you|what are you)\b/.test(said)) return { kind: "help" };

  for (const verb of SEARCH) {
    if (said === verb || said.startsWith(`${verb} `)) return searchIntent(said.slice(verb.length));
  }
  for (const verb of NAVIGATE) {
    if (said === verb || said.startsWith(`${verb} `)) {
      const target = cleanTarget(said.slice(verb.length));
      return target ? { kind: "navigate", target } : { kind: "unknown" };
    }
  }
  return { kind: "unknown" };
}

function searchIntent(rest: string): Intent {
  let query = ` ${rest.trim()} `;
  let status: WorkRequestStatus | undefined;
  for (const [pattern, value] of STATUS_WORDS) {
    if (pattern.test(query)) {
      status = value;
      query = query.replace(pattern, " ");
      break;
    }
  }
  query = query
    .replace(/\b(all|the|my|any|some|work|requests?|tickets?|about|for|with|that|are|is|mention|mentioning|called|named|regarding)\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { kind: "search", query, ...(status && WORK_REQUEST_STATUSES.includes(status) ? { status } : {}) };
}

function cleanTarget(rest: string): string {
  return rest
    .trim()
    .replace(/^(up |me |us )/, "")
    .replace(/^(the|my|our|a|an) /, "")
    .replace(/ (screen|page|please|for me|now)$/g, "")
    .replace(/ (screen|page)$/, "")
    .trim();
}
