import { EventType, type BaseEvent } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { R1042_BROKEN_CARD, R1042_CARD } from "../../../../test/fixtures/surfaces.ts";
import { BASIC_CATALOG_ID } from "../catalog-ids.ts";
import { createSurfaceLifecycle } from "./surface-lifecycle.ts";

/** A lifecycle on the basic catalog, and the activity snapshots it published. */
function lifecycle() {
  const published: Array<{ messageId: string; content: Record<string, unknown> }> = [];
  const surfaces = createSurfaceLifecycle({
    emit: (event) => published.push(event as unknown as (typeof published)[number]),
    catalogs: [{ catalogId: BASIC_CATALOG_ID }],
  });
  const start = (toolCallId: string) => surfaces.observe({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: "render_a2ui" } as BaseEvent);
  const last = (messageId: string) => published.filter((snapshot) => snapshot.messageId === messageId).at(-1)!.content;
  return { surfaces, start, last };
}

describe("the surfaces a lifecycle hands over for the thread", () => {
  it("hands over a rendered surface once, as an activity message with what its last snapshot carried", async () => {
    const { surfaces, start, last } = lifecycle();
    start("call_1");
    expect(surfaces.takeFinished()).toEqual([]);

    await surfaces.settle("call_1", R1042_CARD);

    expect(surfaces.takeFinished()).toEqual([
      { id: "a2ui-surface-call_1", role: "activity", activityType: "a2ui-surface", content: last("a2ui-surface-call_1") },
    ]);
    expect(surfaces.takeFinished()).toEqual([]);
    expect(surfaces.finish()).toEqual([]);
  });

  it("holds back a surface waiting for a retry, and hands over the retry's result under the first call's id", async () => {
    const { surfaces, start } = lifecycle();
    start("call_1");
    await surfaces.settle("call_1", R1042_BROKEN_CARD);
    expect(surfaces.takeFinished()).toEqual([]);

    start("call_2");
    await surfaces.settle("call_2", R1042_CARD);

    expect(surfaces.takeFinished()).toEqual([expect.objectContaining({ id: "a2ui-surface-call_1", content: { a2ui_operations: expect.any(Array) } })]);
  });

  it("keeps no message for a position taken back because its call was a retry of an earlier surface", async () => {
    const { surfaces, start, last } = lifecycle();
    // Both calls start before either is settled, so each shows `building` at a position of its own.
    start("call_1");
    start("call_2");
    await surfaces.settle("call_1", R1042_BROKEN_CARD);
    await surfaces.settle("call_2", R1042_CARD);

    expect(last("a2ui-surface-call_2")).toMatchObject({ status: "failed", error: "Merged into an earlier surface." });
    expect(surfaces.takeFinished().map((message) => message.id)).toEqual(["a2ui-surface-call_1"]);
  });

  it("hands over what the run's end failed, in the order the surfaces appeared", async () => {
    const { surfaces, start, last } = lifecycle();
    start("call_1");
    await surfaces.settle("call_1", R1042_BROKEN_CARD);
    start("call_2");
    start("call_3");
    await surfaces.settle("call_3", { ...R1042_CARD, surfaceId: "other" });

    const ended = surfaces.finish();

    // call_2 started while call_1 waited for its retry, so it had no position of its own yet.
    expect(ended.map((message) => [message.id, message.content.status ?? "operations"])).toEqual([
      ["a2ui-surface-call_1", "failed"],
      ["a2ui-surface-call_3", "operations"],
    ]);
    expect(ended[0]!.content).toEqual(last("a2ui-surface-call_1"));
  });
});
