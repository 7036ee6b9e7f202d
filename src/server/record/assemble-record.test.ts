import { EventType } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { createMemoryRunStore, type RunStore, type StoredEvent } from "../store/index.ts";
import { assembleRecord } from "./assemble-record.ts";

const started = (runId: string): StoredEvent => ({ seq: 1, event: { type: EventType.RUN_STARTED, threadId: "t1", runId } as StoredEvent["event"] });

describe("assembleRecord", () => {
  it("reads the thread's other runs as links only, never their requests (a stateless thread's whole history each)", async () => {
    const store = createMemoryRunStore();
    for (const [runId, parentRunId] of [["r1"], ["r2", "r1"]] as const) {
      await store.beginRun({
        thread: { threadId: "t1", agentId: "a", ownerId: "u" },
        events: [started(runId)],
        run: { runId, userId: "u", ...(parentRunId ? { parentRunId } : {}), input: { messages: [] }, log: [] },
        messages: [],
        resolvedToolCallIds: [],
      });
      await store.finishRun({ runId, status: "finished", outcome: { type: "success" } });
    }
    const linksOnly: RunStore = {
      ...store,
      listRuns: () => Promise.reject(new Error("a record reads no other run's request")),
    };

    const record = await assembleRecord({ store: linksOnly, isLive: () => false, generatedUi: () => false }, (await store.getRun("r1"))!, {
      afterSeq: 0,
      limit: 10,
      maxChars: 10_000,
    });

    expect(record.start.nextRunIds).toEqual(["r2"]);
  });
});
