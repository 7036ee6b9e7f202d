import { EventType, verifyEvents, type BaseEvent } from "@ag-ui/client";
import type { Message, RunAgentInput } from "@ag-ui/core";
import { from, lastValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { parseSseFrames, type ScriptedStep } from "@tether-agent/tether/testing";
import { createScriptedApp } from "../helpers/scripted-app.ts";
import { R1042_CARD } from "../fixtures/surfaces.ts";

const ask = { id: "u1", role: "user" as const, content: "show R-1042 as a card" };

const CARD = R1042_CARD;

const CLICK = {
  name: "open_detail",
  surfaceId: "request-R-1042",
  sourceComponentId: "open",
  context: { requestId: "R-1042" },
  timestamp: "2025-06-01T10:00:00.000Z",
};

const render = (input: unknown): ScriptedStep => ({ toolCalls: [{ toolName: "render_a2ui", input }] });
const clickProps = (userAction: unknown, trigger: Record<string, unknown> = { kind: "ui-action" }) => ({
  a2uiAction: { userAction },
  tether: { trigger },
});
const verified = (frames: Array<{ data: unknown }>) => lastValueFrom(from(frames.map((frame) => frame.data as BaseEvent)).pipe(verifyEvents(), toArray()));
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

/** An app whose thread t1 (kim's) shows the card, rendered by run r1; the next model steps follow. */
async function withCard(next: ScriptedStep[] = [{ text: "Opening R-1042." }], agent: Record<string, unknown> = {}) {
  const app = await createScriptedApp([render(CARD), { text: "Here it is." }, ...next], { agent: { generatedUi: true, ...agent } });
  const frames = await app.run({ threadId: "t1", runId: "r1", messages: [ask] });
  expect(frames.at(-1)!.data.type).toBe(EventType.RUN_FINISHED);
  return app;
}

describe("a click on a generated surface", () => {
  it("starts the next run, with the click in the model's history and the run linked to the one that produced the surface", async () => {
    const app = await withCard();
    const response = await app.post({ threadId: "t1", runId: "r2", messages: [ask], forwardedProps: clickProps(CLICK) });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-tether-repeat-of")).toBeNull();
    const frames = parseSseFrames(await response.text());
    await verified(frames);
    expect(frames.at(-1)!.data.type).toBe(EventType.RUN_FINISHED);

    // The model's prompt ends with the synthetic call and its result.
    const prompt = app.model.calls[2]!.prompt;
    const [call, result] = prompt.slice(-2) as unknown as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(call).toEqual({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: expect.stringMatching(/^a2ui-action-/), toolName: "log_a2ui_event", input: CLICK }],
    });
    expect(result!.role).toBe("tool");
    expect(result!.content[0]).toMatchObject({ type: "tool-result", toolName: "log_a2ui_event", toolCallId: call!.content[0]!.toolCallId });
    expect(JSON.stringify(result!.content[0]!.output)).toContain(
      'The person clicked \\"open_detail\\" on surface \\"request-R-1042\\" (component \\"open\\") with context {\\"requestId\\":\\"R-1042\\"} (as the page reported it).',
    );

    const run = await app.store.getRun("r2");
    expect(run?.parentRunId).toBe("r1");
    expect(run?.trigger).toEqual({ kind: "ui-action", parentRunId: "r1", action: CLICK });
    // Stored in the thread, and replayed in RUN_STARTED for a client that lacks them.
    const stored = await app.store.getMessages("t1");
    expect(stored.slice(-3).map((message) => message.role)).toEqual(["assistant", "tool", "assistant"]);
    const started = frames[0]!.data as { input: { messages: Message[] } };
    expect(started.input.messages.map((message) => message.role)).toEqual(["assistant", "tool"]);
  });

  it("accepts a click from a client that sends no tether trigger (a plain CopilotKit frontend), recording it as a ui-action", async () => {
    const app = await withCard();
    const response = await app.post({ threadId: "t1", runId: "r2", messages: [ask], forwardedProps: { a2uiAction: { userAction: CLICK } } });
    expect(response.status).toBe(200);
    await response.text();
    expect((await app.store.getRun("r2"))?.trigger).toEqual({ kind: "ui-action", parentRunId: "r1", action: CLICK });
  });

  it("starts one run when the same click arrives twice; the second answer is the first run", async () => {
    const app = await withCard();
    const first = parseSseFrames(await (await app.post({ threadId: "t1", runId: "r2", forwardedProps: clickProps(CLICK) })).text());
    const again = await app.post({ threadId: "t1", runId: "r3", forwardedProps: clickProps(CLICK) });
    expect(again.status).toBe(200);
    expect(again.headers.get("x-tether-repeat-of")).toBe("r2");
    const replayed = parseSseFrames(await again.text());
    expect(replayed.map((frame) => frame.data)).toEqual(first.map((frame) => frame.data));
    expect((await app.store.listRuns("t1")).map((run) => run.runId)).toEqual(["r1", "r2"]);
    expect(app.model.calls).toHaveLength(3);
    // A later click on the same button is a new click.
    const later = await app.post({ threadId: "t1", runId: "r4", forwardedProps: clickProps({ ...CLICK, timestamp: "2025-06-01T10:05:00.000Z" }) });
    expect(later.status).toBe(200);
    expect(later.headers.get("x-tether-repeat-of")).toBeNull();
  });

  it("starts one run when the same click arrives twice at the same moment; the second follows it, with the same events", async () => {
    const app = await withCard();
    const [first, second] = await Promise.all(
      ["r2", "r3"].map(async (runId) => {
        const response = await app.post({ threadId: "t1", runId, messages: [ask], forwardedProps: clickProps(CLICK) });
        return { status: response.status, repeatOf: response.headers.get("x-tether-repeat-of"), body: await response.text() };
      }),
    );
    expect([first!.status, second!.status]).toEqual([200, 200]);
    expect(second!.body).toBe(first!.body);
    const ran = parseSseFrames(first!.body)[0]!.data.runId as string;
    expect([first!.repeatOf, second!.repeatOf].filter(Boolean)).toEqual([ran]);
    expect((await app.store.listRuns("t1")).map((run) => run.runId)).toEqual(["r1", ran]);
    expect(app.model.calls).toHaveLength(3);
  });

  it("keeps the parent run the client names", async () => {
    const app = await withCard([{ text: "Anything else?" }, { text: "Opening R-1042." }]);
    await app.run({ threadId: "t1", runId: "r2", messages: [ask, { id: "u2", role: "user", content: "thanks" }] });
    const response = await app.post({ threadId: "t1", runId: "r3", forwardedProps: clickProps(CLICK, { kind: "ui-action", parentRunId: "r2" }) });
    expect(response.status).toBe(200);
    await response.text();
    expect((await app.store.getRun("r3"))?.parentRunId).toBe("r2");
  });
});

describe("a click that cannot be taken is refused before anything is stored", () => {
  const refused = async (input: Partial<RunAgentInput>, user = "kim") => {
    const app = await withCard();
    const response = await app.post({ threadId: "t1", runId: "r2", ...input }, user);
    const runs = await app.store.listRuns(input.threadId ?? "t1");
    return { status: response.status, error: await errorOf(response), runs: runs.map((run) => run.runId), modelCalls: app.model.calls.length };
  };

  it("refuses a surface the thread never showed with surface_unknown (404)", async () => {
    const result = await refused({ forwardedProps: clickProps({ ...CLICK, surfaceId: "request-R-9999" }) });
    expect(result).toMatchObject({ status: 404, error: { code: "surface_unknown" }, runs: ["r1"], modelCalls: 2 });
    expect(result.error.message).toContain("request-R-9999");
  });

  it("refuses a surface of another thread of the same user", async () => {
    const app = await withCard([{ text: "Hello." }]);
    await app.run({ threadId: "t2", runId: "r2", messages: [{ id: "u9", role: "user", content: "hello" }] });
    const response = await app.post({ threadId: "t2", runId: "r3", forwardedProps: clickProps(CLICK) });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("surface_unknown");
    expect((await app.store.listRuns("t2")).map((run) => run.runId)).toEqual(["r2"]);
    // Nor may it start a thread of its own.
    const fresh = await app.post({ threadId: "t3", runId: "r4", forwardedProps: clickProps(CLICK) });
    expect((await errorOf(fresh)).code).toBe("surface_unknown");
    expect(await app.store.getThread("t3")).toBeUndefined();
  });

  it("refuses another user's thread with 403", async () => {
    expect(await refused({ forwardedProps: clickProps(CLICK) }, "lee")).toMatchObject({ status: 403, error: { code: "forbidden" }, runs: ["r1"] });
  });

  it("refuses a component that is not on the surface, and an action its component does not carry, with ui_action_unknown (404)", async () => {
    for (const action of [
      { ...CLICK, sourceComponentId: "ghost" },
      { ...CLICK, name: "close_as_fixed" },
      { ...CLICK, sourceComponentId: "title" },
    ]) {
      const result = await refused({ forwardedProps: clickProps(action) });
      expect(result, JSON.stringify(action)).toMatchObject({ status: 404, error: { code: "ui_action_unknown" }, runs: ["r1"], modelCalls: 2 });
    }
  });

  it("refuses a malformed action with ui_action_invalid (400)", async () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } };
    const { timestamp: _timestamp, ...untimed } = CLICK;
    for (const userAction of [
      untimed,
      { ...CLICK, name: "" },
      { ...CLICK, surfaceId: 42 },
      { ...CLICK, context: ["R-1042"] },
      { ...CLICK, context: deep },
      { ...CLICK, context: { note: "x".repeat(20_000) } },
      { ...CLICK, extra: true },
      "open_detail",
    ]) {
      const result = await refused({ forwardedProps: clickProps(userAction) });
      expect(result, JSON.stringify(userAction).slice(0, 80)).toMatchObject({ status: 400, error: { code: "ui_action_invalid" }, runs: ["r1"] });
    }
    expect(await refused({ forwardedProps: { a2uiAction: "click" } })).toMatchObject({ status: 400, error: { code: "ui_action_invalid" } });
    expect(await refused({ forwardedProps: { tether: { trigger: { kind: "ui-action" } } } })).toMatchObject({
      status: 400,
      error: { code: "ui_action_invalid" },
    });
  });

  it("refuses a click whose context says what its button does not: another record, a changed literal, an extra key", async () => {
    for (const context of [{ requestId: "R-1005" }, { requestId: "R-1042", orgId: "ORG-02" }, { requestId: ["R-1042"] }]) {
      const result = await refused({ forwardedProps: clickProps({ ...CLICK, context }) });
      expect(result, JSON.stringify(context)).toMatchObject({ status: 400, error: { code: "ui_action_invalid" }, runs: ["r1"], modelCalls: 2 });
      expect(result.error.message).toMatch(/open_detail action on surface request-R-1042 .*\(context "(requestId|orgId)"\)/);
    }
    // A literal the surface fixed is held too; a value a person may edit on the surface is the page's to send.
    const form = {
      surfaceId: "close-form",
      components: [
        { id: "root", component: "Column", children: ["note", "close"] },
        { id: "note", component: "TextField", label: "Note", value: { path: "/form/note" } },
        {
          id: "close",
          component: "Button",
          child: "close-label",
          action: { event: { name: "close_request", context: { resolution: "fixed", note: { path: "/form/note" }, requestId: { path: "/request/id" } } } },
        },
        { id: "close-label", component: "Text", text: "Close as fixed" },
      ],
      data: { request: { id: "R-1042" }, form: { note: "" } },
    };
    const click = { name: "close_request", surfaceId: "close-form", sourceComponentId: "close", timestamp: "2025-06-01T10:00:00.000Z" };
    const app = await createScriptedApp([render(form), { text: "Here." }, { text: "Closing." }], { agent: { generatedUi: true } });
    await app.run({ threadId: "t1", runId: "r1", messages: [ask] });
    const forged = await app.post({
      threadId: "t1",
      runId: "r2",
      forwardedProps: clickProps({ ...click, context: { resolution: "wontfix", note: "", requestId: "R-1042" } }),
    });
    expect(forged.status).toBe(400);
    expect(await errorOf(forged)).toMatchObject({ code: "ui_action_invalid", message: expect.stringContaining('(context "resolution")') });
    const typed = await app.post({
      threadId: "t1",
      runId: "r3",
      forwardedProps: clickProps({ ...click, context: { resolution: "fixed", note: "replaced the reader", requestId: "R-1042" } }),
    });
    expect(typed.status).toBe(200);
    await typed.text();
  });

  it("refuses a click whose trigger says it is something else, with invalid_trigger", async () => {
    expect(await refused({ forwardedProps: clickProps(CLICK, { kind: "user-message" }) })).toMatchObject({ status: 400, error: { code: "invalid_trigger" } });
  });

  it("refuses a click for an agent without generated UI", async () => {
    const app = await createScriptedApp([{ text: "Hi." }]);
    await app.run({ threadId: "t1", runId: "r1", messages: [ask] });
    const response = await app.post({ threadId: "t1", runId: "r2", forwardedProps: clickProps(CLICK) });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("surface_unknown");
  });

  it("does not count a surface that failed validation", async () => {
    const broken = { ...CARD, components: CARD.components.filter((component) => component.id !== "title") };
    const app = await createScriptedApp([render(broken), { text: "I could not show it." }], { agent: { generatedUi: { maxAttempts: 1 } } });
    await app.run({ threadId: "t1", runId: "r1", messages: [ask] });
    const response = await app.post({ threadId: "t1", runId: "r2", forwardedProps: clickProps(CLICK) });
    expect((await errorOf(response)).code).toBe("surface_unknown");
  });
});

describe("a click in client history mode", () => {
  /** The history a stateless client holds after the card was shown. */
  const shown: Message[] = [
    ask,
    { id: "a1", role: "assistant", toolCalls: [{ id: "call-1", type: "function", function: { name: "render_a2ui", arguments: JSON.stringify(CARD) } }] },
    { id: "m1", role: "tool", toolCallId: "call-1", content: JSON.stringify({ rendered: true, surfaceId: CARD.surfaceId, attempt: 1, message: "Shown." }) },
    { id: "a2", role: "assistant", content: "Here it is." },
  ];

  it("works with the history as sent, on a server that never saw the thread", async () => {
    const app = await createScriptedApp([{ text: "Opening R-1042." }], { agent: { generatedUi: true, history: "client" } });
    const response = await app.post({ threadId: "t1", runId: "r2", messages: shown, forwardedProps: clickProps(CLICK) });
    expect(response.status).toBe(200);
    const frames = parseSseFrames(await response.text());
    await verified(frames);
    expect(JSON.stringify(app.model.calls[0]!.prompt)).toContain("log_a2ui_event");
    const run = await app.store.getRun("r2");
    expect(run?.trigger).toEqual({ kind: "ui-action", action: CLICK });
    expect(run?.parentRunId).toBeUndefined();
    // Sent twice: the store kept the click, so the second is the first run.
    const again = await app.post({ threadId: "t1", runId: "r3", messages: shown, forwardedProps: clickProps(CLICK) });
    expect(again.headers.get("x-tether-repeat-of")).toBe("r2");
  });

  it("links to the producing run when this server ran it", async () => {
    const app = await withCard(undefined, { history: "client" });
    const history = await app.store.getMessages("t1");
    const response = await app.post({ threadId: "t1", runId: "r2", messages: history, forwardedProps: clickProps(CLICK) });
    expect(response.status).toBe(200);
    await response.text();
    expect((await app.store.getRun("r2"))?.parentRunId).toBe("r1");
  });

  it("refuses a surface missing from the history the client sends", async () => {
    const app = await createScriptedApp([{ text: "Opening R-1042." }], { agent: { generatedUi: true, history: "client" } });
    const response = await app.post({ threadId: "t1", runId: "r2", messages: [ask], forwardedProps: clickProps(CLICK) });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("surface_unknown");
    expect(await app.store.getRun("r2")).toBeUndefined();
  });
});
