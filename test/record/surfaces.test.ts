import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import type { ScriptedStep } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { R1042_BROKEN_CARD, R1042_CARD } from "../fixtures/surfaces.ts";
import { createScriptedApp, type ScriptedApp } from "../helpers/scripted-app.ts";

/**
 * Generated UI in the record: a card that needed a retry (every validation
 * attempt with its verdict and errors, the surface's final content) and a
 * click on it (a report of the run that showed it, led to the run it started).
 */

const render = (input: unknown): ScriptedStep => ({ toolCalls: [{ toolName: "render_a2ui", input }] });
const ask = { id: "u1", role: "user" as const, content: "show R-1042 as a card" };
const CLICK = {
  name: "open_detail",
  surfaceId: "request-R-1042",
  sourceComponentId: "open",
  context: { requestId: "R-1042" },
  timestamp: "2025-06-01T10:00:00.000Z",
};

async function record(app: ScriptedApp, runId: string): Promise<RunRecordDocument> {
  const response = await app.tether.app.request(`/api/runs/${runId}/record`, { headers: { "x-user": "kim" } });
  expect(response.status).toBe(200);
  return (await response.json()) as RunRecordDocument;
}

describe("a run record with generated UI", () => {
  it("keeps every attempt at a surface that needed a retry, with the validator's errors, and the surface's final content", async () => {
    const app = await createScriptedApp([render(R1042_BROKEN_CARD), render(R1042_CARD), { text: "Here it is." }, { text: "Opening R-1042." }], {
      agent: { generatedUi: true },
    });
    await app.run({ threadId: "t1", runId: "r1", messages: [ask] });

    const shown = await record(app, "r1");

    expect(shown.complete).toBe(true);
    expect(shown.input.tools).toContainEqual({ name: "render_a2ui", location: "server", decision: "offered" });
    expect(shown.input.surfaceCatalogs).toEqual(expect.any(Array));
    expect(shown.modelCalls.map((call) => call.surfaces.map((attempt) => [attempt.attempt, attempt.verdict]))).toEqual([
      [[1, "retrying"]],
      [[2, "rendered"]],
      [],
    ]);
    const [first] = shown.modelCalls[0]!.surfaces;
    expect(first).toMatchObject({ surfaceId: "request-R-1042", maxAttempts: 3 });
    expect(first!.errors).toContainEqual(expect.objectContaining({ code: "missing_child" }));
    expect(shown.modelCalls[1]!.surfaces[0]!.errors).toEqual([]);
    // The broken call's result is what the model read: the errors, to fix.
    expect(shown.modelCalls[0]!.toolCalls[0]).toMatchObject({
      toolName: "render_a2ui",
      location: "server",
      status: "result",
      arguments: expect.stringContaining("ghost"),
    });
    expect(JSON.stringify(shown.modelCalls[0]!.toolCalls[0]!.result)).toContain("missing_child");
    expect(shown.modelCalls[1]!.toolCalls[0]!.result).toMatchObject({ rendered: true, surfaceId: "request-R-1042", attempt: 2 });
    expect(shown.output.surfaces).toEqual([
      {
        messageId: `a2ui-surface-${shown.modelCalls[0]!.toolCalls[0]!.toolCallId}`,
        surfaceId: "request-R-1042",
        status: "rendered",
        content: {
          a2ui_operations: expect.arrayContaining([expect.objectContaining({ createSurface: expect.objectContaining({ surfaceId: "request-R-1042" }) })]),
        },
      },
    ]);
    expect(JSON.stringify(shown.output.surfaces)).not.toContain("ghost");
  });

  it("keeps a click on the surface as a report of the run that showed it, led to the run it started, which links back", async () => {
    const app = await createScriptedApp([render(R1042_CARD), { text: "Here it is." }, { text: "Opening R-1042." }], { agent: { generatedUi: true } });
    await app.run({ threadId: "t1", runId: "r1", messages: [ask] });
    await app.run({
      threadId: "t1",
      runId: "r2",
      messages: [ask],
      forwardedProps: { a2uiAction: { userAction: CLICK }, tether: { trigger: { kind: "ui-action" } } },
    });
    // A renderer's failure, reported on the same run, leads nowhere.
    await app.tether.app.request("/api/runs/r1/reports", {
      method: "POST",
      headers: { "x-user": "kim", "Content-Type": "application/json" },
      body: JSON.stringify({ kind: "renderer-error", surfaceId: "request-R-1042", message: "Catalog not found: x" }),
    });

    const shown = await record(app, "r1");
    const clicked = await record(app, "r2");

    expect(shown.start.nextRunIds).toEqual(["r2"]);
    expect(shown.reports).toEqual([
      { receivedAt: expect.any(String), kind: "ui-action", surfaceId: "request-R-1042", body: CLICK, ledToRunId: "r2" },
      {
        receivedAt: expect.any(String),
        kind: "renderer-error",
        surfaceId: "request-R-1042",
        body: { kind: "renderer-error", surfaceId: "request-R-1042", message: "Catalog not found: x" },
      },
    ]);
    expect(clicked.start).toEqual({ trigger: { kind: "ui-action", action: CLICK }, previousRunId: "r1", nextRunIds: [] });
    // The model read the click as the newest turn: the run's new messages.
    expect(clicked.input.newMessageIds).toEqual([expect.stringMatching(/^a2ui-action-.*-call$/), expect.stringMatching(/^a2ui-action-.*-result$/)]);
    expect(clicked.modelCalls[0]!.text).toBe("Opening R-1042.");

    const chain = (await (await app.tether.app.request("/api/threads/t1/runs", { headers: { "x-user": "kim" } })).json()) as {
      runs: Array<{ trigger: { summary: string } }>;
    };
    expect(chain.runs.map((run) => run.trigger.summary)).toEqual(["show R-1042 as a card", "clicked open_detail on request-R-1042"]);
  });
});
