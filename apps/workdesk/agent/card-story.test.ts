import { EventType } from "@ag-ui/core";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, silentLogger } from "@tether-agent/tether/server";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { afterAll, describe, expect, it } from "vitest";
import { WORKDESK_USERS, createSqliteWorkRequestRepository, createWorkdeskAgent, navigateToScreen } from "./index.ts";

const requests = await createSqliteWorkRequestRepository({ filename: ":memory:" });
afterAll(() => requests.closeDatabase());

async function workdesk() {
  const agent = createWorkdeskAgent({ requests, generatedUi: true, playbook: { chunkDelayMs: 0 } });
  const tether = await createTetherApp({
    agents: [agent],
    authenticate: () => WORKDESK_USERS.find((user) => user.id === "lee"),
    store: createMemoryRunStore(),
    logger: silentLogger,
  });
  return async (body: Record<string, unknown>) => {
    const response = await tether.app.request("/api/agents/workdesk/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tools: [toAgUiTool(navigateToScreen)], context: [], ...body }),
    });
    expect(response.status).toBe(200);
    return parseSseFrames(await response.text()).map((frame) => frame.data);
  };
}

describe("R-1042 as a card, on the offline playbook", () => {
  it("renders the request as a valid surface, and its buttons start the next runs: a navigation, and a close that asks first", async () => {
    const run = await workdesk();
    const first = await run({ threadId: "card", runId: "r1", messages: [{ id: "u1", role: "user", content: "show R-1042 as a card" }] });
    const surface = first.filter((event) => event.type === EventType.ACTIVITY_SNAPSHOT).at(-1)!;
    const operations = (surface.content as { a2ui_operations?: Array<Record<string, unknown>> }).a2ui_operations!;
    expect(JSON.stringify(operations)).toContain("Replace broken badge reader at Gate 3");
    expect(first.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "success" } });

    const click = (runId: string, name: string, sourceComponentId: string) =>
      run({
        threadId: "card",
        runId,
        messages: [],
        forwardedProps: {
          a2uiAction: { userAction: { name, surfaceId: "request-R-1042", sourceComponentId, context: { requestId: "R-1042" }, timestamp: `${runId}-t` } },
          tether: { trigger: { kind: "ui-action" } },
        },
      });
    const opened = await click("r2", "open_detail", "open");
    const calls = opened.filter((event) => event.type === EventType.TOOL_CALL_START).map((event) => event.toolCallName);
    expect(calls).toEqual(["lookupScreens", "navigateToScreen"]);
    expect(opened.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { pendingToolCallIds: [expect.any(String)] } });

    const closing = await run({ threadId: "card-close", runId: "c1", messages: [{ id: "u1", role: "user", content: "show R-1042 as a card" }] });
    expect(closing.at(-1)!.type).toBe(EventType.RUN_FINISHED);
    const asked = await run({
      threadId: "card-close",
      runId: "c2",
      messages: [],
      forwardedProps: {
        a2uiAction: {
          userAction: {
            name: "close_request",
            surfaceId: "request-R-1042",
            sourceComponentId: "close",
            context: { requestId: "R-1042", resolution: "fixed" },
            timestamp: "t",
          },
        },
      },
    });
    expect(asked.at(-1)).toMatchObject({
      type: EventType.RUN_FINISHED,
      outcome: { type: "interrupt", interrupts: [expect.objectContaining({ message: expect.stringContaining("Close R-1042") })] },
    });
  });
});
