import { describe, expect, it } from "vitest";
import { activityMessage, assistantMessage, toolCall, toolMessage, userMessage } from "../../../test/fixtures/messages.ts";
import { repeatedMessages } from "./repeated-messages.ts";

const ask = userMessage("u1", "open billing");
const call = assistantMessage("a1", "", [toolCall("call_1", "openPanel", { panel: "billing" })]);
const opened = toolMessage("t1", "call_1", { status: "succeeded", stage: "displayed" });
const reply = assistantMessage("a2", "Billing is open.");
const stored = [ask, call, opened, reply];

describe("repeatedMessages", () => {
  it("finds the stored outcome a request ends with, sent again as stored", () => {
    expect(repeatedMessages(stored, [ask, call, opened])).toEqual({ newestResultId: "t1" });
  });

  it("finds it under the id it was stored with when the request names it anew, with the same content", () => {
    expect(repeatedMessages(stored, [ask, call, { ...opened, id: "t1-again" }])).toEqual({ newestResultId: "t1" });
  });

  it("skips what only the page shows, and names no outcome for a request that ends with another message", () => {
    expect(repeatedMessages(stored, [ask, call, opened, activityMessage("act-1")])).toEqual({ newestResultId: "t1" });
    expect(repeatedMessages(stored, [ask, call])).toEqual({});
  });

  it("is undefined for a request that adds anything: a new message, another outcome for the call, a changed one", () => {
    expect(repeatedMessages(stored, [ask, call, opened, userMessage("u2", "and the list?")])).toBeUndefined();
    expect(repeatedMessages(stored, [ask, call, toolMessage("t1-other", "call_1", { status: "failed", reason: "not_found" })])).toBeUndefined();
    expect(repeatedMessages(stored, [ask, call, { ...opened, content: '{"status":"failed"}' }])).toBeUndefined();
    expect(repeatedMessages([ask, call], [ask, call, opened])).toBeUndefined();
  });
});
