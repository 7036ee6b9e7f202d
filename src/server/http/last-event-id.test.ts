import { describe, expect, it } from "vitest";
import { catchTetherError } from "../../testing/index.ts";
import { parseLastEventId } from "./last-event-id.ts";

describe("parseLastEventId", () => {
  it("reads <runId>:<seq>, splitting at the last colon", () => {
    expect(parseLastEventId("run-1:42")).toEqual({ runId: "run-1", seq: 42 });
    expect(parseLastEventId("thread:run:0")).toEqual({ runId: "thread:run", seq: 0 });
  });

  it.each(["run:1e3", "run:0x10", "run: 3", "run:+3", "run:-1", "run:3.0", "run:007", "run:", ":3", "run", "run:99999999999999999"])(
    "refuses %j with invalid_last_event_id",
    (value) => {
      expect(catchTetherError(() => parseLastEventId(value))?.code).toBe("invalid_last_event_id");
    },
  );
});
