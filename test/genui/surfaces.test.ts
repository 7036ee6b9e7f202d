import { EventType, verifyEvents, type BaseEvent } from "@ag-ui/client";
import { tryParseA2UIOperations } from "@ag-ui/a2ui-middleware";
import { from, lastValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { A2UI_SCHEMA_CONTEXT_DESCRIPTION } from "@tether-agent/tether/genui";
import { createScriptedApp } from "../helpers/scripted-app.ts";
import { R1042_BROKEN_CARD, R1042_CARD } from "../fixtures/surfaces.ts";

const user = (content: string) => ({ id: "u1", role: "user" as const, content });

const CARD = R1042_CARD;
const BROKEN = R1042_BROKEN_CARD;

const render = (input: unknown) => ({ toolCalls: [{ toolName: "render_a2ui", input }] });
const snapshots = (frames: Array<{ data: Record<string, unknown> }>) =>
  frames
    .filter((frame) => frame.data.type === EventType.ACTIVITY_SNAPSHOT)
    .map((frame) => frame.data as { messageId: string; activityType: string; content: Record<string, unknown>; replace: boolean });
const verified = (frames: Array<{ data: unknown }>) => lastValueFrom(from(frames.map((frame) => frame.data as BaseEvent)).pipe(verifyEvents(), toArray()));

describe("generated surfaces in a run", () => {
  it("shows a valid surface at one activity position: building, then the operations the middleware's own parser reads", async () => {
    const app = await createScriptedApp([render(CARD), { text: "Here it is." }], { agent: { generatedUi: true } });
    const frames = await app.run({ threadId: "t1", runId: "r1", messages: [user("show R-1042 as a card")] });
    await verified(frames);
    const [building, shown, ...rest] = snapshots(frames);
    expect(rest).toEqual([]);
    expect(building).toEqual({
      type: "ACTIVITY_SNAPSHOT",
      messageId: expect.stringMatching(/^a2ui-surface-/),
      activityType: "a2ui-surface",
      content: { status: "building" },
      replace: true,
    });
    expect(shown!.messageId).toBe(building!.messageId);
    const parsed = tryParseA2UIOperations(JSON.stringify(shown!.content));
    expect(parsed?.operations.map((operation) => Object.keys(operation).filter((key) => key !== "version"))).toEqual([
      ["createSurface"],
      ["updateComponents"],
      ["updateDataModel"],
    ]);
    expect(parsed?.operations.every((operation) => operation.version === "v0.9")).toBe(true);
    const result = frames.find((frame) => frame.data.type === EventType.TOOL_CALL_RESULT)!.data;
    expect(JSON.parse(result.content as string)).toMatchObject({ rendered: true, surfaceId: "request-R-1042", attempt: 1 });
  });

  it("feeds the errors back, one line each, and renders the valid second attempt once, at the same position", async () => {
    const app = await createScriptedApp([render(BROKEN), render(CARD), { text: "Here it is." }], { agent: { generatedUi: true } });
    const frames = await app.run({ threadId: "t2", runId: "r1", messages: [user("show R-1042 as a card")] });
    await verified(frames);
    const lifecycle = snapshots(frames);
    expect(lifecycle.map((snapshot) => snapshot.content.status ?? "operations")).toEqual(["building", "retrying", "operations"]);
    expect(new Set(lifecycle.map((snapshot) => snapshot.messageId)).size).toBe(1);
    expect(lifecycle[1]!.content).toMatchObject({
      status: "retrying",
      attempt: 2,
      maxAttempts: 3,
      errors: expect.arrayContaining([expect.objectContaining({ code: "missing_child" })]),
    });
    // What the model read before its second attempt.
    const secondPrompt = JSON.stringify(app.model.calls[1]!.prompt);
    expect(secondPrompt).toContain("A2UI validation failed");
    expect(secondPrompt).toMatch(/\[missing_child\] [^:]+: /);
    // Nothing of the broken attempt was ever sent as operations.
    expect(JSON.stringify(lifecycle.filter((snapshot) => snapshot.content.a2ui_operations))).not.toContain("ghost");
  });

  it("ends the surface failed after three invalid attempts, and never sends operations", async () => {
    const app = await createScriptedApp([render(BROKEN), render(BROKEN), render(BROKEN), { text: "I could not show it." }], { agent: { generatedUi: true } });
    const frames = await app.run({ threadId: "t3", runId: "r1", messages: [user("show R-1042 as a card")] });
    await verified(frames);
    const lifecycle = snapshots(frames);
    expect(lifecycle.map((snapshot) => snapshot.content.status)).toEqual(["building", "retrying", "retrying", "failed"]);
    expect(lifecycle.at(-1)!.content).toMatchObject({ status: "failed", attempts: 3, maxAttempts: 3 });
    expect(lifecycle.some((snapshot) => "a2ui_operations" in snapshot.content)).toBe(false);
    expect(JSON.stringify(app.model.calls[3]!.prompt)).toContain("The surface was not shown: that was the last of 3 attempts");
    expect(frames.at(-1)!.data.type).toBe("RUN_FINISHED");
  });

  it("reports progress while a large surface's arguments stream", async () => {
    const many = Array.from({ length: 60 }, (_, index) => ({ id: `line-${index}`, component: "Text", text: `Line ${index} of a long surface` }));
    const long = { surfaceId: "long", components: [{ id: "root", component: "Column", children: many.map((line) => line.id) }, ...many] };
    const app = await createScriptedApp([render(long), { text: "Done." }], { agent: { generatedUi: true } });
    const frames = await app.run({ threadId: "t4", runId: "r1", messages: [user("show a long list")] });
    const progress = snapshots(frames).filter((snapshot) => typeof snapshot.content.progressTokens === "number");
    expect(progress.length).toBeGreaterThan(1);
    const tokens = progress.map((snapshot) => snapshot.content.progressTokens as number);
    expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
  });

  it("bounds what may be generated by the catalogs the client declares", async () => {
    // An inline catalog (the middleware's context entry) without Button: the card's buttons are outside it.
    const tiny = { catalogId: "https://example.com/catalogs/tiny.json", components: { Card: {}, Column: {}, Row: {}, Text: {} } };
    const app = await createScriptedApp([render(CARD), render(CARD), render(CARD), { text: "I could not show it." }], { agent: { generatedUi: true } });
    const frames = await app.run({
      threadId: "t5",
      runId: "r1",
      messages: [user("show R-1042 as a card")],
      context: [{ description: A2UI_SCHEMA_CONTEXT_DESCRIPTION, value: JSON.stringify(tiny) }],
      forwardedProps: { a2uiClientCapabilities: { supportedCatalogIds: [tiny.catalogId] } },
    });
    const lifecycle = snapshots(frames);
    expect(lifecycle.at(-1)!.content.status).toBe("failed");
    expect(JSON.stringify(lifecycle[1]!.content.errors)).toContain("outside_catalog");
  });

  it("does not offer render_a2ui to a client that declares only catalogs Tether cannot check, so the model answers in words", async () => {
    const app = await createScriptedApp([{ text: "R-1042 is open." }], { agent: { generatedUi: true } });
    const frames = await app.run({
      threadId: "t5b",
      runId: "r1",
      messages: [user("show R-1042 as a card")],
      forwardedProps: { a2uiClientCapabilities: { supportedCatalogIds: ["https://example.com/catalogs/tiny.json"] } },
    });
    expect(frames.at(-1)!.data.type).toBe(EventType.RUN_FINISHED);
    expect((app.model.calls[0]!.tools ?? []).map((tool) => tool.name)).not.toContain("render_a2ui");
    // The record says why.
    expect(JSON.stringify(await app.store.getRun("r1"))).toContain("surface_catalog_unknown");
  });

  it("offers render_a2ui only to an agent with generated UI", async () => {
    const plain = await createScriptedApp([{ text: "Hi." }]);
    await plain.run({ threadId: "t6", runId: "r1", messages: [user("hi")] });
    expect((plain.model.calls[0]!.tools ?? []).map((tool) => tool.name)).not.toContain("render_a2ui");
    const withUi = await createScriptedApp([{ text: "Hi." }], { agent: { generatedUi: true } });
    await withUi.run({ threadId: "t6", runId: "r1", messages: [user("hi")] });
    expect(withUi.model.calls[0]!.tools?.map((tool) => tool.name)).toContain("render_a2ui");
  });
});

describe("the generated UI setting", () => {
  it("refuses a maxAttempts that is not a positive integer, and honours one attempt", async () => {
    const { defineAgent } = await import("@tether-agent/tether/server");
    const { createScriptedModel, catchTetherError } = await import("@tether-agent/tether/testing");
    const error = catchTetherError(() => defineAgent({ id: "a", model: createScriptedModel([]), generatedUi: { maxAttempts: 0 } }));
    expect(error.code).toBe("config_invalid");
    const app = await createScriptedApp([render(BROKEN), { text: "I could not show it." }], { agent: { generatedUi: { maxAttempts: 1 } } });
    const frames = await app.run({ threadId: "t7", runId: "r1", messages: [user("show R-1042 as a card")] });
    expect(snapshots(frames).map((snapshot) => snapshot.content.status)).toEqual(["building", "failed"]);
  });
});
