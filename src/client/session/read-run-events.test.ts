import { EventType, type BaseEvent } from "@ag-ui/core";
import type { AbstractAgent, RunAgentInput } from "@ag-ui/client";
import { Observable, Subject } from "rxjs";
import { describe, expect, it } from "vitest";
import { readRunEvents } from "./read-run-events.ts";

const input = { threadId: "t", runId: "r", messages: [], tools: [], context: [], state: {}, forwardedProps: {} } as RunAgentInput;
const started = { type: EventType.RUN_STARTED, threadId: "t", runId: "r" } as BaseEvent;
const end = { type: EventType.TOOL_CALL_END, toolCallId: "c" } as BaseEvent;

describe("readRunEvents", () => {
  it("reads each event once, as the transport emits it, before the stages after it see the event", () => {
    const wire = new Subject<BaseEvent>();
    const seen: string[] = [];
    const middleware = readRunEvents({ live: true }, (event, live) => seen.push(`read ${event.type} ${live}`));
    middleware(input, { run: () => wire.asObservable() } as unknown as AbstractAgent).subscribe((event) => seen.push(`after ${event.type}`));
    wire.next(started);
    expect(seen).toEqual([`read RUN_STARTED true`, `after RUN_STARTED`]); // in the same tick: nothing waits between
    wire.next(end);
    expect(seen.slice(2)).toEqual([`read TOOL_CALL_END true`, `after TOOL_CALL_END`]);
  });

  it("reads whether the agent's events are live as each arrives", () => {
    const agent = { live: true };
    const seen: boolean[] = [];
    const events = new Observable<BaseEvent>((subscriber) => {
      subscriber.next(started);
      agent.live = false;
      subscriber.next(end);
      subscriber.complete();
    });
    readRunEvents(agent, (_event, live) => seen.push(live))(input, { run: () => events } as unknown as AbstractAgent).subscribe();
    expect(seen).toEqual([true, false]);
  });
});
