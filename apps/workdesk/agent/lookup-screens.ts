import type { WorkdeskUser } from "./users.ts";
import { breadcrumb, screensFor, type Screen } from "./screens.ts";
import type { WorkRequestRepository } from "./work-request-repository.ts";

export interface ScreenCandidate {
  screenId: string;
  name: string;
  /** The route to follow by hand, with any record id filled in. */
  route: string;
  path: string;
  description: string;
  matchedOn: "name" | "synonym" | "description" | "record";
  /** State for the target screen, such as the record to show. */
  payload?: Record<string, unknown>;
}

export interface ScreenLookup {
  query: string;
  orgScope: string;
  candidates: ScreenCandidate[];
  /** When nothing matched: the screens this user can open, so the answer can offer them. */
  available?: Array<{ screenId: string; name: string }>;
  /** A record id was asked for that is not in the user's organisation (or does not exist): they look the same. */
  recordNotFound?: string;
}

const RECORD_ID = /\bR-?(\d{4})\b/i;
const STOP_WORDS = new Set([
  "the",
  "a",
  "an",
  "my",
  "our",
  "of",
  "for",
  "to",
  "screen",
  "page",
  "please",
  "me",
  "see",
  "where",
  "is",
  "can",
  "i",
  "find",
  "with",
  "things",
  "like",
  "place",
  "you",
]);

/**
 * Finds screens by name, synonyms, description and by what they show (a record
 * id like R-1042 leads to the list and the detail). Only screens the user may
 * open are considered at all, so nothing outside their permissions can reach
 * the result, the model, or the stored thread.
 */
export async function lookupScreens(query: string, user: WorkdeskUser, requests: WorkRequestRepository): Promise<ScreenLookup> {
  const visible = screensFor(user).filter((screen) => screen.route);
  const candidates: Array<ScreenCandidate & { score: number }> = [];
  const record = RECORD_ID.exec(query);
  const request = record ? await requests.get(user.orgScope, `R-${record[1]}`) : undefined;
  const asked = queryTerms(query);

  for (const screen of visible) {
    if (request && screen.shows === "work-request") {
      candidates.push({ ...candidate(screen, "record", { requestId: request.id }), score: 100 });
      continue;
    }
    if (record && screen.shows === "work-request-list") {
      candidates.push({ ...candidate(screen, "record"), score: request ? 90 : 60 });
      continue;
    }
    if (screen.route?.includes(":")) continue; // a detail screen needs a record to open
    const match = asked && score(asked, screen);
    if (match) candidates.push({ ...candidate(screen, match.on), score: match.score });
  }
  candidates.sort((a, b) => b.score - a.score);
  const result: ScreenLookup = { query, orgScope: user.orgScope, candidates: candidates.slice(0, 5).map(({ score: _score, ...rest }) => rest) };
  if (record && !request) result.recordNotFound = `R-${record[1]}`;
  if (candidates.length === 0)
    result.available = visible.filter((screen) => !screen.route?.includes(":")).map((screen) => ({ screenId: screen.id, name: screen.name }));
  return result;
}

function candidate(screen: Screen, matchedOn: ScreenCandidate["matchedOn"], payload?: Record<string, unknown>): ScreenCandidate {
  const route = payload?.requestId ? screen.route!.replace(":requestId", String(payload.requestId)) : screen.route!;
  return {
    screenId: screen.id,
    name: screen.name,
    route,
    path: breadcrumb(screen),
    description: screen.description,
    matchedOn,
    ...(payload ? { payload } : {}),
  };
}

interface QueryTerms {
  phrase: string;
  /** The query's words without the stop words, as typed, joined and stemmed. */
  words: string[];
  joined: string;
  stems: string[];
}

/** The query as the screens are matched against it; undefined when only stop words are left. */
function queryTerms(query: string): QueryTerms | undefined {
  const phrase = normalize(query);
  const words = phrase.split(" ").filter((word) => word && !STOP_WORDS.has(word));
  return words.length === 0 ? undefined : { phrase, words, joined: words.join(" "), stems: words.map(stem) };
}

interface ScreenTerms {
  name: string;
  synonyms: string[];
  nameStems: Set<string>;
  descriptionStems: Set<string>;
}

// Screens are fixed definitions: their words are worked out once, not at every lookup.
const screenTerms = new WeakMap<Screen, ScreenTerms>();

function termsOf(screen: Screen): ScreenTerms {
  let terms = screenTerms.get(screen);
  if (!terms) {
    const name = normalize(screen.name);
    const synonyms = screen.synonyms.map(normalize);
    terms = {
      name,
      synonyms,
      nameStems: new Set([...name.split(" "), ...synonyms.flatMap((synonym) => synonym.split(" "))].map(stem)),
      descriptionStems: new Set(normalize(screen.description).split(" ").map(stem)),
    };
    screenTerms.set(screen, terms);
  }
  return terms;
}

function score(query: QueryTerms, screen: Screen): { score: number; on: ScreenCandidate["matchedOn"] } | undefined {
  const { phrase, words, joined, stems } = query;
  const terms = termsOf(screen);
  if (phrase === terms.name || joined === terms.name) return { score: 80, on: "name" };
  for (const synonym of terms.synonyms) {
    if (joined === synonym || phrase.includes(synonym)) return { score: 70 + Math.min(synonym.length, 9), on: "synonym" };
  }
  const hits = stems.filter((word) => terms.nameStems.has(word)).length;
  if (hits > 0) return { score: 40 + (hits / words.length) * 20, on: "name" };
  const described = stems.filter((word) => terms.descriptionStems.has(word)).length;
  if (described > 0 && described / words.length >= 0.5) return { score: 20 + described, on: "description" };
  return undefined;
}

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

// Enough stemming for menu names: "requests" and "request" are the same word.
function stem(word: string): string {
  return word.replace(/(ies|es|s)$/, (ending) => (ending === "ies" ? "y" : ""));
}
