import { EventType } from "@ag-ui/client";
import { describe, expect, it } from "vitest";
import { createScriptedApp } from "../../../test/helpers/scripted-app.ts";

const user = (id: string, content: string) => ({ id, role: "user" as const, content });

describe("the runner", () => {
  it("replays in RUN_STARTED what a client-mode run added, so a page that follows it after a reload sees the question", async () => {
    const app = await createScriptedApp([{ text: "One." }, { text: "Two." }], { agent: { history: "client" } });
    const first = await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "first")] });
    expect(first[0]!.data.input.messages).toEqual([user("u1", "first")]);
    const answer = first.find((frame) => frame.data.type === EventType.TEXT_MESSAGE_START)!.data.messageId as string;
    const second = await app.run({
      threadId: "t1",
      runId: "r2",
      messages: [user("u1", "first"), { id: answer, role: "assistant", content: "One." }, user("u2", "second")],
    });
    // Only what this store had not seen: the rest is already the thread's.
    expect(second[0]!.data.input.messages).toEqual([user("u2", "second")]);
  });
});
