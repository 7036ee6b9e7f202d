import type { Message } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { regenerateCut } from "./regenerate-cut.ts";

const user = (id: string, content: string): Message => ({ id, role: "user", content });
const said = (id: string, content: string, calls: string[] = []): Message => ({
  id,
  role: "assistant",
  content,
  ...(calls.length ? { toolCalls: calls.map((call) => ({ id: call, type: "function" as const, function: { name: "openPanel", arguments: "{}" } })) } : {}),
});
const result = (id: string, toolCallId: string): Message => ({ id, role: "tool", toolCallId, content: '{"status":"succeeded"}' });
const surface: Message = { id: "surface-1", role: "activity", activityType: "a2ui-surface", content: {} } as Message;
const none = new Set<string>();

describe("regenerateCut", () => {
  it("replaces a whole answer in words", () => {
    expect(regenerateCut([user("u1", "hi"), said("a1", "Hello!")], none)).toEqual({ keep: [user("u1", "hi")], questionId: "u1", answerId: "a1" });
  });

  it("keeps what was done (a call, its result, the step's surface) and replaces the words after it", () => {
    const thread = [user("u1", "open it"), said("a1", "Opening.", ["c1"]), result("t1", "c1"), surface, said("a2", "It is open.")];
    expect(regenerateCut(thread, none)).toEqual({ keep: thread.slice(0, 4), questionId: "u1", answerId: "a2" });
  });

  it("sets aside a render-only call whose result this page still holds, with the words around it", () => {
    const thread = [user("u1", "recipes?"), said("a1", "Here are three.", ["c1"]), result("held", "c1")];
    expect(regenerateCut(thread, new Set(["held"]))).toEqual({ keep: [user("u1", "recipes?")], questionId: "u1", answerId: "a1" });
  });

  it("asks a question left without an answer again (its run failed, or was stopped before any words)", () => {
    expect(regenerateCut([user("u1", "hi")], none)).toEqual({ keep: [user("u1", "hi")], questionId: "u1", answerId: "u1" });
  });

  it("has nothing to replace when the answer ended with what was done, or there is no question", () => {
    expect(regenerateCut([user("u1", "open it"), said("a1", "Opening.", ["c1"]), result("t1", "c1")], none)).toBeUndefined();
    expect(regenerateCut([], none)).toBeUndefined();
  });
});
