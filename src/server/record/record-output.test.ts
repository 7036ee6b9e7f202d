import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../store/index.ts";
import { recordOutput } from "./record-output.ts";

const events = (from: number, to: number, pad = ""): StoredEvent[] =>
  Array.from({ length: to - from + 1 }, (_, index) => ({
    seq: from + index,
    event: { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: pad } as StoredEvent["event"],
  }));
const page = { afterSeq: 0, limit: 1000, maxChars: 1024 * 1024 };
const surface = (seq: number, messageId: string, content: Record<string, unknown>): StoredEvent => ({
  seq,
  event: { type: "ACTIVITY_SNAPSHOT", messageId, activityType: "a2ui-surface", content, replace: true } as StoredEvent["event"],
});

describe("recordOutput", () => {
  it("gives every event with its ids, the count and last seq, and no next when they fit", () => {
    const output = recordOutput(events(1, 5), page);

    expect(output).toMatchObject({ eventCount: 5, lastSeq: 5 });
    expect(output.events.map((event) => [event.seq, event.type, event.messageId])).toEqual([1, 2, 3, 4, 5].map((seq) => [seq, "TEXT_MESSAGE_CONTENT", "m1"]));
    expect(output.next).toBeUndefined();
  });

  it("starts after afterSeq and stops at `limit` events, saying where the next page starts", () => {
    const output = recordOutput(events(1, 20), { ...page, afterSeq: 3, limit: 5 });

    expect(output.events.map((event) => event.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(output.next).toEqual({ afterSeq: 8 });
    expect(output.eventCount).toBe(20);
  });

  it("stops before the event that would pass maxChars, but always gives one", () => {
    const big = recordOutput(events(1, 3, "x".repeat(5000)), { ...page, maxChars: 100 });
    expect(big.events.map((event) => event.seq)).toEqual([1]);
    expect(big.next).toEqual({ afterSeq: 1 });

    const some = recordOutput(events(1, 10, "x".repeat(1000)), { ...page, maxChars: 3500 });
    expect(some.events.map((event) => event.seq)).toEqual([1, 2, 3]);
  });

  it("cuts a string over 16 KiB in an event, and an event over 16 KiB as a whole, keeping length and hash", () => {
    const long = recordOutput(events(1, 1, "y".repeat(40_000)), page);
    expect((long.events[0]!.event as { delta: unknown }).delta).toMatchObject({ cut: true, head: "y".repeat(1024), length: 40_000 });

    const wide = { seq: 1, event: { type: "STATE_SNAPSHOT", snapshot: { rows: Array.from({ length: 100 }, () => "z".repeat(500)) } } as StoredEvent["event"] };
    expect(recordOutput([wide], page).events[0]!.event).toMatchObject({
      cut: true,
      length: JSON.stringify(wide.event).length,
      sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
  });

  it("keeps the final content of each surface, in the order they appeared", () => {
    const operations = [{ version: "v0.9", createSurface: { surfaceId: "request-R-1042", catalogId: "basic" } }];
    const output = recordOutput(
      [
        surface(1, "a2ui-surface-c1", { status: "building" }),
        surface(2, "a2ui-surface-c2", { status: "building" }),
        surface(3, "a2ui-surface-c1", { status: "retrying", attempt: 2 }),
        surface(4, "a2ui-surface-c2", { status: "failed", error: "no" }),
        surface(5, "a2ui-surface-c1", { a2ui_operations: operations }),
      ],
      page,
    );

    expect(output.surfaces).toEqual([
      { messageId: "a2ui-surface-c1", surfaceId: "request-R-1042", status: "rendered", content: { a2ui_operations: operations } },
      { messageId: "a2ui-surface-c2", status: "failed", content: { status: "failed", error: "no" } },
    ]);
  });

  it("redacts a secret the stream split across deltas, in every delta that held part of it", () => {
    // A real provider streams a few characters at a time: no one delta looks like a secret.
    const streamed = (type: string, idKey: string, id: string, deltas: string[], from: number): StoredEvent[] =>
      deltas.map((delta, index) => ({ seq: from + index, event: { type, [idKey]: id, delta } as unknown as StoredEvent["event"] }));
    const output = recordOutput(
      [
        ...streamed("TEXT_MESSAGE_CONTENT", "messageId", "m1", ["Use Bea", "rer eyJhbGciOi", "JIUzI1NiJ9 and sk-proj-ABCD", "EFGHIJKLMNOP1234 now"], 1),
        ...streamed("TOOL_CALL_ARGS", "toolCallId", "c1", ['{"query":"badge","pass', 'word":"hunt', 'er2-secret"}'], 5),
      ],
      page,
    );

    const deltas = output.events.map((event) => (event.event as { delta: string }).delta);
    const everything = deltas.join("|");
    for (const secret of ["eyJhbGciOi", "JIUzI1NiJ9", "ABCD", "EFGHIJKLMNOP1234", "hunt", "er2-secret"]) expect(everything).not.toContain(secret);
    // Read together, the deltas say what the message and arguments said, secrets redacted.
    expect(deltas.slice(0, 4).join("")).toBe("Use [redacted] and [redacted] now");
    expect(deltas.slice(4).join("")).toBe('{"query":"badge","password":"[redacted]"}');
  });

  it("gives a RUN_STARTED's and a MESSAGES_SNAPSHOT's messages as their count and ids: the record's input holds the history", () => {
    const messages = [
      { id: "u1", role: "user", content: "a=".repeat(50_000) },
      { id: "a1", role: "assistant", content: "ok" },
    ];
    const output = recordOutput(
      [
        { seq: 1, event: { type: "RUN_STARTED", threadId: "t1", runId: "r1", input: { threadId: "t1", runId: "r1", messages, tools: [], context: [] } } },
        { seq: 2, event: { type: "MESSAGES_SNAPSHOT", messages } },
      ] as StoredEvent[],
      page,
    );

    expect(output.events.map((event) => event.event)).toEqual([
      {
        type: "RUN_STARTED",
        threadId: "t1",
        runId: "r1",
        input: { threadId: "t1", runId: "r1", tools: [], context: [], messageCount: 2, messageIds: ["u1", "a1"] },
      },
      { type: "MESSAGES_SNAPSHOT", messageCount: 2, messageIds: ["u1", "a1"] },
    ]);
  });
});
