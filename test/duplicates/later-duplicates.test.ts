import type { Message } from "@ag-ui/core";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createScriptedModel } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { createScriptedApp, openPanel } from "../helpers/scripted-app.ts";

/**
 * A browser outcome sent again after the run it started has ended (a retry
 * whose first answer was lost, a reload): that run's events again, even when
 * that run left new browser calls waiting; never a second run, never a refusal.
 */

const tools = [toAgUiTool(openPanel)];
const outcome = JSON.stringify({ status: "succeeded", stage: "displayed" });

async function twoCalls() {
  const model = createScriptedModel([
    { toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] },
    { toolCalls: [{ toolName: "openPanel", input: { panel: "orders" } }] },
    { text: "Both are open." },
  ]);
  const app = await createScriptedApp([], { agent: { model } });
  const first = await app.run({ threadId: "later", runId: "r1", messages: [{ id: "u1", role: "user", content: "open billing, then orders" }], tools });
  const callId = first.at(-1)!.data.outcome.pendingToolCallIds[0] as string;
  const history = await app.store.getMessages("later");
  return { app, model, callId, history };
}

describe("a browser outcome sent again after its run ended", () => {
  it("gets that run's events again though the run left a new call waiting", async () => {
    const { app, model, callId, history } = await twoCalls();
    const answer: Message = { id: "t1", role: "tool", toolCallId: callId, content: outcome };
    const continued = await app.post({ threadId: "later", runId: "r2", messages: [...history, answer], tools });
    const body = await continued.text();
    expect(body).toContain('"pendingToolCallIds"');

    for (const [runId, id] of [
      ["r3", "t1"],
      ["r4", "t1-again"],
    ] as const) {
      const again = await app.post({ threadId: "later", runId, messages: [...history, { ...answer, id }], tools });
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(body);
    }
    expect((await app.store.listRuns("later")).map((run) => run.runId)).toEqual(["r1", "r2"]);
    expect(model.calls).toHaveLength(2);
  });

  it("still refuses a request that brings nothing while a call waits", async () => {
    const { app, history } = await twoCalls();
    const response = await app.post({ threadId: "later", runId: "r2", messages: history, tools });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("tool_results_pending");
  });
});
