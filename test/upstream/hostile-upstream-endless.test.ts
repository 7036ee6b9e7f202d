import { EventType } from "@ag-ui/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spoken } from "../helpers/run-events.ts";
import { ask, finishedEvent, frame, lastEvent, started, startHostile, textEvents, verified, type Hostile, type Scenario } from "./hostile-harness.ts";

/**
 * An upstream that never ends: keep-alive comments for ever, events for ever,
 * a byte at a time, more after its RUN_FINISHED. Comments are not events:
 * they do not reset the idle timeout (a proxy's keep-alives in front of a
 * stuck agent must not keep a run alive); events that keep coming are bounded
 * by the run timeout. Each case ends within its bound, never hangs.
 */

/** Writes `next()` every `everyMs` until the reader hangs up (which `onClose` is told of). */
const forever =
  (head: string[], next: (count: number) => string, everyMs: number, onClose?: () => void): Scenario =>
  (response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const piece of head) response.write(piece);
    let count = 0;
    const timer = setInterval(() => response.write(next(count++)), everyMs);
    response.on("close", () => {
      clearInterval(timer);
      onClose?.();
    });
  };

let hostile: Hostile;
let hungUpAfterFinish = false;
const finishedThenMore = frame({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: " And more." });

beforeAll(async () => {
  hostile = await startHostile(
    {
      "only comments": forever([], () => ": keep-alive\n\n", 100),
      "comments after start": forever([frame(started())], () => ": keep-alive\n\n", 100),
      // Events Tether sets aside (a state delta is taken now: it changes the thread's state).
      "custom for ever": forever([frame(started())], (count) => frame({ type: "CUSTOM", name: "tick", value: count }), 20),
      "text for ever": forever(
        [frame(started()), frame({ type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" })],
        () => frame({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "la " }),
        100,
      ),
      "a byte at a time": forever([frame(started())], (count) => 'data: {"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}'[count] ?? " ", 200),
      "more after finish": forever(
        [frame(started()), ...textEvents("m", "Done.").map(frame), frame(finishedEvent())],
        () => finishedThenMore,
        50,
        () => (hungUpAfterFinish = true),
      ),
      "another thread": forever(
        [
          frame({ type: "RUN_STARTED", threadId: "someone-else", runId: "their-run" }),
          ...textEvents("m", "Hello.").map(frame),
          frame(finishedEvent("their-run")),
        ],
        () => "",
        60_000,
      ),
    },
    { firstEventTimeoutMs: 1_000, idleTimeoutMs: 1_500, runTimeoutMs: 3_000 },
  );
});

afterAll(() => hostile?.close());

const stopped = async (threadId: string, text: string, message: RegExp) => {
  const asked = await ask(hostile, threadId, text);
  expect(lastEvent(asked)).toMatchObject({ type: EventType.RUN_ERROR, code: "upstream_unavailable", message: expect.stringMatching(message) });
  await verified(asked.events);
  return asked;
};

describe("an upstream that never ends", () => {
  it("is not kept alive by keep-alive comments before its first event", async () => {
    await stopped("only-comments", "only comments", /sent no event within 1000 ms/);
  });

  it("nor by keep-alive comments after it: they do not reset the idle timeout", async () => {
    await stopped("comments-after", "comments after start", /went quiet for 1500 ms mid-run/);
  });

  it("is stopped at the run timeout when its events never stop, and its run log stays short", async () => {
    await stopped("custom-forever", "custom for ever", /run took longer than 3000 ms/);
    const log = hostile.logs.get("custom-forever-r1")!.join("\n");
    expect(log).toMatch(/CUSTOM .* and \d+ more\.$/);
    expect(log.length).toBeLessThan(4_000);
  });

  it("keeps the text it streamed before the run timeout, closed, as the client saw it", async () => {
    const asked = await stopped("text-forever", "text for ever", /run took longer than 3000 ms/);
    expect(spoken(asked.events)).toMatch(/^(la )+$/);
    expect(asked.messages.at(-1)).toMatchObject({ role: "assistant", content: spoken(asked.events) });
  });

  it("is stopped at the idle timeout when one event trickles in a byte at a time: bytes are not events", async () => {
    await stopped("trickle", "a byte at a time", /went quiet for 1500 ms mid-run/);
  });

  it("finishes at the upstream's RUN_FINISHED, passes on nothing after it, and hangs up", async () => {
    const asked = await ask(hostile, "more-after", "more after finish");
    expect(lastEvent(asked)).toMatchObject({ type: EventType.RUN_FINISHED });
    expect(spoken(asked.events)).toBe("Done.");
    await expect.poll(() => hungUpAfterFinish).toBe(true);
  });

  it("runs under its own ids when the upstream's RUN_STARTED names another thread and run, and notes it", async () => {
    const asked = await ask(hostile, "other-thread", "another thread");
    expect(asked.events[0]).toMatchObject({ type: EventType.RUN_STARTED, threadId: "other-thread", runId: "other-thread-r1" });
    expect(lastEvent(asked)).toMatchObject({ type: EventType.RUN_FINISHED, threadId: "other-thread", runId: "other-thread-r1" });
    expect(JSON.stringify(asked.events)).not.toContain("someone-else");
    expect(hostile.logs.get("other-thread-r1")?.join("\n")).toContain("names thread someone-else");
  });
});
