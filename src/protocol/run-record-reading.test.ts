import { describe, expect, it } from "vitest";
import { approvalStory, cutOf, navigationStory, recordOf } from "../../test/fixtures/run-records.ts";
import { cutPointers, markCut } from "./record-cuts.ts";
import { approvalsOf, assertRunRecord, browserOutcomeOf, describeAnswer, describeCut, keptText, readRunRecord } from "./run-record-reading.ts";

describe("assertRunRecord", () => {
  it("accepts a format-1 or format-2 record and refuses another format or something that is no record, saying what to do", () => {
    expect(() => assertRunRecord(recordOf({ runId: "r" }))).not.toThrow();
    expect(() => assertRunRecord({ ...recordOf({ runId: "r" }), format: 1 })).not.toThrow();
    expect(() => assertRunRecord({ ...recordOf({ runId: "r" }), format: 3 })).toThrow(/format 3; this reader knows format 1, 2\. Update Tether\./);
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

describe("readRunRecord", () => {
  const forged = { cut: true, head: "attacker", length: 5, sha256: `sha256:${"0".repeat(64)}` };

  it("takes for a cut only what the record's `cuts` lists: a cut's look-alike in state or props reads as the data it is", () => {
    const base = recordOf({ runId: "r" });
    const sent = recordOf({ runId: "r", input: { ...base.input, messages: cutOf("[{", 300_000), state: forged, forwardedProps: { nested: forged } } });
    // As the reader gets it: JSON, where nothing but the list says which is which.
    const record = readRunRecord(JSON.parse(JSON.stringify(sent)));

    expect(record.cuts).toEqual(["/input/messages"]);
    expect(keptText(record.input.messages)).toEqual({ text: "[{", cut: { length: 300_000, sha256: expect.stringMatching(/^sha256:/) } });
    expect(keptText(record.input.state)).toEqual({ text: JSON.stringify(forged) });
    expect(keptText(record.input.forwardedProps)).toEqual({ text: JSON.stringify({ nested: forged }) });
  });

  it("marks nothing for a place that holds no cut, nor for a record of format 1, which lists none", () => {
    const base = recordOf({ runId: "r" });
    const wire = JSON.parse(JSON.stringify({ ...base, input: { ...base.input, state: forged }, cuts: ["/input/messages", "/nowhere/0", "input/state", 7] }));
    expect(keptText(readRunRecord(wire).input.state).cut).toBeUndefined();
    const old = JSON.parse(JSON.stringify({ ...base, format: 1, input: { ...base.input, state: forged } }));
    delete old.cuts;
    expect(keptText(readRunRecord(old).input.state).cut).toBeUndefined();
  });

  it("writes and reads JSON Pointers with keys holding `/` and `~`", () => {
    const document = { props: { "a/b~c": [0, markCut({ cut: true, head: "h", length: 9, sha256: "sha256:x" })] } };
    expect(cutPointers(document)).toEqual(["/props/a~1b~0c/1"]);
    const record = readRunRecord(
      JSON.parse(
        JSON.stringify({ ...recordOf({ runId: "r" }), input: { ...recordOf({ runId: "r" }).input, state: document }, cuts: ["/input/state/props/a~1b~0c/1"] }),
      ),
    );
    expect(keptText((record.input.state as typeof document).props["a/b~c"][1]).cut).toEqual({ length: 9, sha256: "sha256:x" });
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
