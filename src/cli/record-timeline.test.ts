import { describe, expect, it } from "vitest";
import { approvalStory, eventsOf, modelCallOf, navigationStory, recordOf, surfaceRecord } from "../../test/fixtures/run-records.ts";
import { formatRecordTimeline } from "./record-timeline.ts";

describe("formatRecordTimeline", () => {
  it("prints the navigation story's first run: trigger, model calls with where each tool ran, the browser's report and the run it led to", () => {
    expect(formatRecordTimeline(navigationStory().first)).toMatchInlineSnapshot(`
      "Run run-1 · agent workdesk · thread thread-test-1 · user lee
      finished (success) · 2025-05-01 09:00:00 → 09:00:01 UTC (1.2 s)

      Started by
        a user message (m-1)
        next runs: run-2

      Given to the agent
        1 message (1 new)
        tools offered: lookupScreens [server], navigateToScreen [browser]

      Model calls (2)
        1. tether.playbook/workdesk · 1 message, 2 tools · first token 12 ms, total 85 ms · 120 in / 30 out tokens · finish tool-calls
           tool lookupScreens [server] call-lookup {"query":"work request list"} → result {"best":{"screenId":"MNU-3120","name":"Work request list","route":"/work-requests"}} (3 ms)
        2. tether.playbook/workdesk · 3 messages, 2 tools · first token 12 ms, total 85 ms · 120 in / 30 out tokens · finish tool-calls
           text: "Opening the work request list."
           tool navigateToScreen [browser] call-nav {"screenId":"MNU-3120","screenName":"Work request list","routeHint":"/work-requests"} → in the browser, reported {"status":"succeeded","reason":"displayed","message":"Work request list is open."}

      Browser reports (1)
        09:00:01 tool-outcome navigateToScreen (call-nav): {"status":"succeeded","reason":"displayed","message":"Work request list is open."} → led to run run-2

      Events sent (4, last seq 4)
              1 RUN_STARTED
              2 TOOL_CALL_START (tool call call-lookup)
              3 TOOL_CALL_START (tool call call-nav)
              4 RUN_FINISHED

      Outcome: success, waiting for the browser: call-nav
      Usage: 240 in / 60 out tokens
      "
    `);
  });

  it("says how an approval was answered, from the next run's trigger", () => {
    const { asking, answering } = approvalStory(false);
    const text = formatRecordTimeline(asking, { nextRecords: [answering] });
    expect(text).toContain('int-1: closeWorkRequest {"requestId":"R-1042","resolution":"fixed"} → rejected (run run-answer)');
    expect(formatRecordTimeline(asking)).toContain("→ not answered yet");
    expect(formatRecordTimeline(answering)).toContain("Started by\n  an approval answer: int-1 rejected\n  previous run: run-ask");
  });

  it("lists each surface attempt with the validator's errors, and marks cut values with their length and hash", () => {
    const text = formatRecordTimeline(surfaceRecord());
    expect(text).toContain(
      "request-R-1042: attempt 1/3 retrying\n    unknown_component at /components/3: Component type Cardd is not in the catalog.\n  request-R-1042: attempt 2/3 rendered",
    );
    expect(text).toContain('{"surfaceId":"request-R-1042","compo [cut: 4200 chars, sha256 ab12ab12ab12…]');
    expect(text).toContain("ui-action surface request-R-1042");
    expect(text).toContain("→ led to run run-open");
  });

  it("says loudly when a record is incomplete, and why", () => {
    const record = recordOf({
      runId: "run-lost",
      status: "error",
      complete: false,
      incomplete: { code: "instance_lost", message: "The server running this run stopped." },
    });
    expect(formatRecordTimeline(record)).toContain("INCOMPLETE RECORD (instance_lost): The server running this run stopped.");
    expect(formatRecordTimeline(recordOf({ runId: "run-going", status: "running", complete: false }))).toContain("Incomplete record: the run is still going.");
  });

  it("prints a failed model call's error as the client was told it, and the provider's status and kind of failure", () => {
    const record = recordOf({
      runId: "run-refused",
      status: "error",
      modelCalls: [
        modelCallOf({
          error: {
            code: "model_error",
            message: "The model provider failed: it refused the request as invalid (HTTP 400; trying again will not help).",
            provider: { statusCode: 400, failure: "bad_request" },
          },
        }),
      ],
    });
    const text = formatRecordTimeline(record);
    expect(text).toContain("error model_error: The model provider failed: it refused the request as invalid");
    expect(text).toContain("the provider answered HTTP 400 (bad_request); its own words are in the server's log");
  });

  it("says how many events an upstream agent sent in a call and how many Tether set aside", () => {
    const upstream = {
      received: 604,
      events: [
        { type: "RUN_STARTED", event: { type: "RUN_STARTED" } },
        { type: "STATE_SNAPSHOT", event: { type: "STATE_SNAPSHOT" }, ignored: "not part of the conversation" },
      ],
      leftOut: { count: 602, ignored: 1 },
    };
    const record = recordOf({ runId: "run-upstream", modelCalls: [modelCallOf({ model: { provider: "ag-ui", modelId: "http://agent/" }, upstream })] });
    expect(formatRecordTimeline(record)).toContain("the upstream sent 604 events (2 set aside), 602 past the record's caps not kept; --json prints them");
  });

  it("points to --json when more event pages exist", () => {
    const record = recordOf({ runId: "run-long", output: { eventCount: 3000, lastSeq: 3000, events: [], surfaces: [], next: { afterSeq: 1000 } } });
    expect(formatRecordTimeline(record)).toContain("… more from seq 1001 (tether record --json prints every page)");
  });

  it("prints a run of streamed parts of one message as one line, and leaves out token counts nobody reported", () => {
    const record = recordOf({
      runId: "run-text",
      output: {
        eventCount: 5,
        lastSeq: 5,
        events: eventsOf([
          "RUN_STARTED",
          { type: "TEXT_MESSAGE_CONTENT", messageId: "m-2" },
          { type: "TEXT_MESSAGE_CONTENT", messageId: "m-2" },
          { type: "TEXT_MESSAGE_CONTENT", messageId: "m-2" },
          "RUN_FINISHED",
        ]),
        surfaces: [],
      },
      usage: { outputTokens: 23 },
    });
    const text = formatRecordTimeline(record);
    expect(text).toContain("Events sent (5, last seq 5)\n        1 RUN_STARTED\n      2–4 TEXT_MESSAGE_CONTENT ×3 (message m-2)\n        5 RUN_FINISHED\n");
    expect(text).toContain("Usage: 23 out tokens");
  });

  it("shortens long values to one line", () => {
    const record = recordOf({ runId: "run-wide", modelCalls: [{ ...navigationStory().second.modelCalls[0]!, text: "word ".repeat(100) }] });
    const line = formatRecordTimeline(record, { valueWidth: 20 })
      .split("\n")
      .find((entry) => entry.includes("text:"));
    expect(line).toBe('     text: "word word word word…"');
  });

  it("prints terminal control characters a record holds as visible escapes, never as themselves", () => {
    // A browser chooses a report's tool name and words, a model its text and arguments: none may drive the reader's terminal.
    const hostile = "\u001b]0;owned\u0007\u001b[2J\u009b31m\u202eevil";
    const record = recordOf({
      runId: "run-hostile",
      modelCalls: [
        modelCallOf({
          text: hostile,
          toolCalls: [{ toolCallId: "c1", toolName: "navigateToScreen", location: "browser", status: "pending", arguments: hostile }],
        }),
      ],
      reports: [{ receivedAt: "2025-05-01T09:00:01.000Z", kind: "tool-outcome", toolCallId: "c1", toolName: hostile, body: hostile }],
    });

    const printed = formatRecordTimeline(record);

    expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(printed).toContain("\\u001b]0;owned\\u0007");
  });
});
