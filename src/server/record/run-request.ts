import type { Context, Message, ResumeEntry, Tool } from "@ag-ui/core";

/** A run's request as the store kept it (`runs.input`): the whole request in client mode, the message ids in server mode. */
export interface RunRequest {
  /** `client`: the request carried the history; `server`: the thread holds it. */
  mode: "server" | "client";
  /** The request's messages: as sent (client mode), or looked up in the thread by id (server mode). */
  messages: Message[];
  state: unknown;
  context: Context[];
  forwardedProps: unknown;
  tools: Tool[];
  resume: ResumeEntry[];
}

/** Reads a run's stored request (`RunStore.readRunInput`); `byId` finds a thread's message (server mode keeps only the ids). */
export function readRunRequest(stored: unknown, byId: Map<string, Message>): RunRequest {
  const input = (stored ?? {}) as {
    messages?: Message[];
    messageIds?: string[];
    state?: unknown;
    context?: Context[];
    forwardedProps?: unknown;
    tools?: Tool[];
    resume?: ResumeEntry[];
  };
  const mode = Array.isArray(input.messages) ? "client" : "server";
  const messages = input.messages ?? (input.messageIds ?? []).flatMap((id) => byId.get(id) ?? []);
  return {
    mode,
    messages,
    state: input.state ?? {},
    context: input.context ?? [],
    forwardedProps: input.forwardedProps ?? {},
    tools: input.tools ?? [],
    resume: input.resume ?? [],
  };
}
