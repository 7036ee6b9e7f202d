import { createHash } from "node:crypto";

/**
 * How a run's request is stored: a stateless agent's request carries the
 * whole history, so a thread of n turns would store n histories, the square
 * of the conversation. Instead each message is stored once per thread, keyed
 * by the SHA-256 of its JSON (as the validated request serializes it, so it
 * reads back exactly), and a history is a chain of links, each naming its
 * message and the link before it: a run's request keeps only its last link.
 * A link's key is the hash of its message's and its parent's keys, so a
 * history that goes on where another stopped shares every link of it, and the
 * links, like the messages, grow with what is new, never with what is resent.
 */
export interface StoredRunInput {
  /** The request as JSON; with a history stored apart, `"messages": null` holds its place (so the keys keep their order). */
  inline: string;
  /** The history's last link, when the history is stored apart. */
  tail?: string;
  /** The history's links from the first, each with its message. */
  links: HistoryLink[];
}

export interface HistoryLink {
  /** Hash of `parent` and `content`: the key of the history up to and with this message. */
  node: string;
  /** The link before, or "" for a history's first message. */
  parent: string;
  /** Hash of `body`. */
  content: string;
  /** The message as JSON. */
  body: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Splits a request for storing: its history (a non-empty `messages` array) apart, the rest inline. */
export function splitRunInput(input: unknown): StoredRunInput {
  const messages = (input as { messages?: unknown } | null)?.messages;
  if (!isPlainObject(input) || !Array.isArray(messages) || messages.length === 0) return { inline: JSON.stringify(input), links: [] };
  const links: HistoryLink[] = [];
  let parent = "";
  for (const message of messages) {
    const body = JSON.stringify(message) ?? "null";
    const content = sha256(body);
    const node = sha256(`${parent}:${content}`);
    links.push({ node, parent, content, body });
    parent = node;
  }
  return { inline: JSON.stringify({ ...input, messages: null }), tail: parent, links };
}

/** The request as it was stored: `inline` parsed, with the history's messages (first to last) back in their place. */
export function joinRunInput(inline: unknown, messages: unknown[] | undefined): unknown {
  if (messages === undefined) return inline;
  (inline as { messages: unknown }).messages = messages;
  return inline;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
