import { describe, expect, it } from "vitest";
import { approvalStory, cutOf, navigationStory, recordOf } from "../../test/fixtures/run-records.ts";
import { approvalsOf, assertRunRecord, browserOutcomeOf, describeAnswer, describeCut, keptText } from "./run-record-reading.ts";

describe("assertRunRecord", () => {
  it("accepts a format-1 record and refuses another format or something that is no record, saying what to do", () => {
    expect(() => assertRunRecord(recordOf({ runId: "r" }))).not.toThrow();
    expect(() => assertRunRecord({ ...recordOf({ runId: "r" }), format: 2 })).toThrow(/format 2; this reader knows format 1\. Update Tether\./);
    expect(() => assertRunRecord({ run: { runId: "r" }, events: [] })).toThrow(/not a run record/);
    expect(() => assertRunRecord(null)).toThrow(/not a run record/);
  });
});

describe("keptText", () => {
  it("gives a string as it is, other values as JSON, and a cut value's head with its length and hash", () => {
    expect(keptText("hello")).toEqual({ text: "hello" });
    expect(keptText({ a: 1 })).toEqual({ text: '{"a":1}' });
    expect(keptText(cutOf("[{", 52000))).toEqual({ text: "[{", cut: { length: 52000, sha256: expect.stringMatching(/^sha256:/) } });
    expect(describeCut({ length: 52000, sha256: "sha256:0123456789abcdef0123" })).toBe("cut: 52000 chars, sha256 0123456789ab…");
  });
});

describe("approvalsOf", () => {
  it("pairs each approval a run asked with the answer its next run carried", () => {
    const { asking, answering } = approvalStory(false);
    expect(approvalsOf(asking, [answering])).toEqual([
      {
        interruptId: "int-1",
        toolCallId: "call-close",
        toolName: "closeWorkRequest",
        arguments: '{"requestId":"R-1042","resolution":"fixed"}',
        answer: { status: "resolved", approved: false, runId: "run-answer" },
      },
    ]);
    expect(describeAnswer(approvalsOf(asking, [answering])[0]!.answer)).toBe("rejected");
    expect(describeAnswer(approvalsOf(asking)[0]!.answer)).toBe("not answered yet");
    expect(describeAnswer({ status: "cancelled", runId: "r" })).toBe("cancelled");
  });
});

describe("browserOutcomeOf", () => {
  it("prefers the browser's report to the run", () => {
    const { first } = navigationStory();
    expect(browserOutcomeOf("call-nav", first)).toMatchObject({ from: "report", ledToRunId: "run-2", body: { status: "succeeded" } });
  });

  it("otherwise finds the tool message of the next run that carried the outcome", () => {
    const { first, second } = navigationStory();
    const unreported = { ...first, reports: [] };
    const carrying = { ...second, input: { ...second.input, messages: [{ id: "t", role: "tool", toolCallId: "call-nav", content: '{"status":"failed"}' }] } };
    expect(browserOutcomeOf("call-nav", unreported, [carrying])).toEqual({ from: "tool-message", runId: "run-2", content: '{"status":"failed"}' });
    expect(browserOutcomeOf("call-nav", unreported, [])).toBeUndefined();
  });
});
