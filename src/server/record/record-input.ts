import type { Message } from "@ag-ui/core";
import type { RecordInput } from "../../protocol/index.ts";
import { clientCatalogs } from "../genui/surfaces/index.ts";
import { keep } from "./keep.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import type { RunFact } from "./run-facts.ts";
import type { RunRequest } from "./run-request.ts";

// The client's view of the UI, never part of a model's prompt.
const UI_ONLY_ROLES = new Set(["activity", "reasoning"]);

/**
 * Part 2 of a record, what the agent was given: the history (the thread as the
 * run found it in server mode, the request's in client mode) with the run's
 * new messages, the state (and the person's edit of it), context and forwarded props (Tether's own props
 * left out), the tools with the allow-list's decisions, and the catalogs
 * surfaces were checked against.
 */
export function recordInput(options: {
  request: RunRequest;
  /** Server mode: the thread's messages from the runs before this one. */
  before: Message[];
  /** What the run added, as its RUN_STARTED carried it. */
  added: Message[];
  facts: RunFact[];
  generatedUi: boolean;
}): RecordInput {
  const { request } = options;
  const base = (request.mode === "server" ? options.before : request.messages).filter((message) => !UI_ONLY_ROLES.has(message.role));
  const known = new Set(base.map((message) => message.id));
  const added = options.added.filter((message) => !UI_ONLY_ROLES.has(message.role));
  const messages = [...base, ...added.filter((message) => !known.has(message.id))];
  const { tether: _tether, ...forwardedProps } = (request.forwardedProps ?? {}) as Record<string, unknown>;
  const tools = recordedTools(options.facts);
  const edit = options.facts.find((fact) => fact.kind === "state-edit");
  return {
    messages: keep(messages, RECORD_LIMITS.messages),
    messageCount: messages.length,
    newMessageIds: added.map((message) => message.id),
    state: keep(request.state, RECORD_LIMITS.value),
    ...(edit?.kind === "state-edit" ? { stateEdit: keep(edit.operations, RECORD_LIMITS.value) } : {}),
    context: keep(request.context, RECORD_LIMITS.value),
    forwardedProps: keep(forwardedProps, RECORD_LIMITS.value),
    tools,
    surfaceCatalogs: options.generatedUi
      ? clientCatalogs({ context: request.context, forwardedProps: request.forwardedProps }).map((catalog) => catalog.catalogId)
      : [],
  };
}

/** The tools the run considered, with the allow-list's decisions, as its facts say. */
export function recordedTools(facts: RunFact[]): RecordInput["tools"] {
  return facts.flatMap((fact) => (fact.kind === "tools" ? fact.tools : []));
}
