import { EventType, type BaseEvent } from "@ag-ui/core";

/** What a scripted stream holds: an event, a gate it waits at, or something the server does at that point. */
export type ScriptItem = BaseEvent | Promise<void> | (() => void);

/** A gate a scripted stream waits at, opened by the test. */
export function gate(): { open(): void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** An SSE response that yields the items' events one read at a time (ids `<runId>:<n>`), waiting at each gate. */
export function scriptedSse(runId: string, items: ScriptItem[]): Response {
  const encoder = new TextEncoder();
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (let item = items[index++]; ; item = items[index++]) {
        if (item === undefined) return controller.close();
        if (item instanceof Promise) await item;
        else if (typeof item === "function") item();
        else return controller.enqueue(encoder.encode(`id: ${runId}:${index}\ndata: ${JSON.stringify(item)}\n\n`));
      }
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
}

type RunIds = { threadId: string; runId: string };

/** Events in the shapes a run streams. */
export const runEvents = {
  started: ({ threadId, runId }: RunIds) => ({ type: EventType.RUN_STARTED, threadId, runId }) as BaseEvent,
  finished: ({ threadId, runId }: RunIds) => ({ type: EventType.RUN_FINISHED, threadId, runId }) as BaseEvent,
  snapshot: (state: unknown) => ({ type: EventType.STATE_SNAPSHOT, snapshot: state }) as BaseEvent,
  delta: (...operations: unknown[]) => ({ type: EventType.STATE_DELTA, delta: operations }) as BaseEvent,
  /** One assistant message, streamed a token at a time. */
  text: (messageId: string, tokens: string[]) =>
    [
      { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" },
      ...tokens.map((delta) => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta })),
      { type: EventType.TEXT_MESSAGE_END, messageId },
    ] as BaseEvent[],
};
