import type { BaseEvent } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { isMarkedCut } from "../../protocol/record-cuts.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import { createUpstreamEventLog } from "./upstream-event-log.ts";

const event = (fields: Record<string, unknown>) => fields as unknown as BaseEvent;

describe("createUpstreamEventLog", () => {
  it("marks the event last received as set aside, with every reason given for it", () => {
    const log = createUpstreamEventLog(3);
    log.receive(event({ type: "RUN_STARTED" }));
    log.receive(event({ type: "TOOL_CALL_CHUNK", toolCallId: "a", delta: "{}" }));
    log.ignore("arguments for a tool call that is not open");
    log.ignore("the end of a tool call that is not open");
    const fact = log.fact();
    expect(fact).toMatchObject({ kind: "upstream-events", step: 3, received: 2, cuts: [] });
    expect(fact.events.map((entry) => entry.ignored)).toEqual([
      undefined,
      "arguments for a tool call that is not open; the end of a tool call that is not open",
    ]);
  });

  it("counts a set-aside event past the cap once, however many reasons it had", () => {
    const log = createUpstreamEventLog(1);
    for (let index = 0; index < RECORD_LIMITS.upstreamEvents; index++) log.receive(event({ type: "TEXT_MESSAGE_CONTENT", delta: "a" }));
    log.receive(event({ type: "CUSTOM", name: "x" }));
    log.ignore("not part of the conversation");
    log.ignore("again");
    log.receive(event({ type: "RUN_FINISHED" }));
    const fact = log.fact();
    expect(fact.events).toHaveLength(RECORD_LIMITS.upstreamEvents);
    expect(fact.leftOut).toEqual({ count: 2, ignored: 1 });
    expect(fact.received).toBe(RECORD_LIMITS.upstreamEvents + 2);
  });

  it("keeps an event as it was when received, whatever is later done to the object", () => {
    const log = createUpstreamEventLog(1);
    const received = { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "as sent" };
    log.receive(event(received));
    received.delta = "changed";
    expect(log.fact().events[0]!.event).toEqual({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "as sent" });
  });

  it("cuts an event whose JSON is over an event's cap, and lists the cut", () => {
    const log = createUpstreamEventLog(1);
    const fields = Object.fromEntries(Array.from({ length: 400 }, (_, index) => [`field${index}`, "v".repeat(50)]));
    log.receive(event({ type: "STATE_SNAPSHOT", snapshot: fields }));
    const fact = log.fact();
    expect(fact.events[0]).toMatchObject({ type: "STATE_SNAPSHOT", event: { cut: true } });
    expect(isMarkedCut(fact.events[0]!.event)).toBe(true);
    expect(fact.cuts).toEqual(["/0/event"]);
  });

  it("describes an event JSON cannot carry, or one nested too deep to walk, rather than fail the step", () => {
    const log = createUpstreamEventLog(1);
    const cyclic: Record<string, unknown> = { type: "CUSTOM" };
    cyclic.self = cyclic;
    log.receive(event(cyclic));
    let deep: unknown = "bottom";
    for (let depth = 0; depth < 100_000; depth++) deep = { deep };
    log.receive(event({ type: "RAW", event: deep }));
    log.receive(event({ type: "RUN_FINISHED" }));
    const fact = log.fact();
    expect(fact.events.map((entry) => [entry.type, typeof entry.event === "string" ? entry.event : "kept"])).toEqual([
      ["CUSTOM", "(not kept: JSON cannot hold it, or it nests too deep)"],
      ["RAW", "(not kept: JSON cannot hold it, or it nests too deep)"],
      ["RUN_FINISHED", "kept"],
    ]);
  });
});
