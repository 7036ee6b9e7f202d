import { describe, expect, it } from "vitest";
import { uiActionIds, uiActionMessages } from "./ui-action.ts";

const CLICK = {
  name: "close_fixed",
  surfaceId: "request-R-1042",
  sourceComponentId: "close",
  context: { requestId: "R-1042" },
  timestamp: "2025-06-01T10:00:00Z",
};

describe("uiActionIds", () => {
  it("names the same click in the same thread alike, and any other click or thread differently", () => {
    const ids = uiActionIds("t1", CLICK);
    expect(uiActionIds("t1", { ...CLICK, context: { requestId: "R-1042" } })).toEqual(ids);
    expect(ids.toolCallId).toMatch(/^a2ui-action-[0-9a-f]{32}$/);
    for (const other of [
      uiActionIds("t2", CLICK),
      uiActionIds("t1", { ...CLICK, timestamp: "2025-06-01T10:00:01Z" }),
      uiActionIds("t1", { ...CLICK, name: "open_detail" }),
      uiActionIds("t1", { ...CLICK, sourceComponentId: "open" }),
      uiActionIds("t1", { ...CLICK, surfaceId: "request-R-1043" }),
    ]) {
      expect(other.toolCallId).not.toBe(ids.toolCallId);
    }
  });
});

describe("uiActionMessages", () => {
  it("records the click as a log_a2ui_event call with the action as arguments, and a result in words", () => {
    const ids = uiActionIds("t1", CLICK);
    expect(uiActionMessages(ids, CLICK)).toEqual([
      {
        id: `${ids.toolCallId}-call`,
        role: "assistant",
        toolCalls: [{ id: ids.toolCallId, type: "function", function: { name: "log_a2ui_event", arguments: JSON.stringify(CLICK) } }],
      },
      {
        id: `${ids.toolCallId}-result`,
        role: "tool",
        toolCallId: ids.toolCallId,
        content:
          'The person clicked "close_fixed" on surface "request-R-1042" (component "close") with context {"requestId":"R-1042"} (as the page reported it).',
      },
    ]);
  });
});
