import { EventType } from "@ag-ui/client";
import { A2UI_SCHEMA_CONTEXT_DESCRIPTION } from "@tether-agent/tether/genui";
import { validateSurface } from "@tether-agent/tether/genui";
import { describe, expect, it } from "vitest";
import { createScriptedApp } from "../helpers/scripted-app.ts";

const user = (content: string) => ({ id: "u1", role: "user" as const, content });
const render = (input: unknown) => ({ toolCalls: [{ toolName: "render_a2ui", input }] });
const card = (surfaceId: string, child = "text") => ({
  surfaceId,
  components: [
    { id: "root", component: "Card", child },
    { id: "text", component: "Text", text: "Hello" },
  ],
});
const snapshots = (frames: Array<{ data: Record<string, unknown> }>) =>
  frames
    .filter((frame) => frame.data.type === EventType.ACTIVITY_SNAPSHOT)
    .map((frame) => frame.data as { messageId: string; content: Record<string, unknown> });
const lastStatusBy = (frames: Array<{ data: Record<string, unknown> }>) =>
  Object.fromEntries(snapshots(frames).map((snapshot) => [snapshot.messageId, snapshot.content.status ?? "operations"]));

describe("generated surfaces under hostile input", () => {
  it("ignores a client catalog entry that is not a schema instead of failing the run", async () => {
    const single = { surfaceId: "s", catalogId: "evil", components: [{ id: "root", component: "Text", text: "Hello" }] };
    const app = await createScriptedApp([render(single), { text: "Done." }], { agent: { generatedUi: true } });
    const evil = { catalogId: "evil", components: { Text: { type: "object" }, X: null } };
    const frames = await app.run({
      threadId: "t1",
      runId: "r1",
      messages: [user("show")],
      context: [{ description: A2UI_SCHEMA_CONTEXT_DESCRIPTION, value: JSON.stringify(evil) }],
    });
    expect(frames.at(-1)!.data.type).toBe("RUN_FINISHED");
    expect(Object.values(lastStatusBy(frames))).toEqual(["operations"]);
  });

  it("refuses data nested too deep as a schema error the model can fix", () => {
    let deep: unknown = 1;
    for (let level = 0; level < 5000; level++) deep = [deep];
    const validation = validateSurface({ ...card("s"), data: { d: deep } }, {});
    expect(validation.ok ? [] : validation.errors.map((error) => error.code)).toEqual(["schema"]);
  });

  it("checks nested templates within a bounded number of scopes", () => {
    const level = (depth: number): unknown => (depth === 0 ? { v: "x" } : Array.from({ length: 20 }, () => level(depth - 1)));
    const texts = Array.from({ length: 400 }, (_, index) => ({ id: `t${index}`, component: "Text", text: { path: "v" } }));
    const surface = {
      surfaceId: "nested",
      components: [
        { id: "root", component: "List", children: { componentId: "a", path: "/l" } },
        { id: "a", component: "List", children: { componentId: "b", path: "." } },
        { id: "b", component: "List", children: { componentId: "c", path: "." } },
        { id: "c", component: "Column", children: texts.map((text) => text.id) },
        ...texts,
      ],
      data: { l: level(3) },
    };
    // Before the budget this took over 20 seconds of one blocked event loop; a test times out at 20.
    expect(() => validateSurface(surface, {})).not.toThrow();
  });

  it("keeps two surfaces of one step at their own positions, with their own attempts", async () => {
    const both = {
      toolCalls: [
        { toolName: "render_a2ui", input: card("a", "ghost") },
        { toolName: "render_a2ui", input: card("b", "ghost") },
      ],
    };
    const app = await createScriptedApp([both, render(card("a")), render(card("b")), { text: "Both shown." }], { agent: { generatedUi: true } });
    const frames = await app.run({ threadId: "t2", runId: "r1", messages: [user("show two")] });
    const positions = lastStatusBy(frames);
    expect(Object.values(positions)).toEqual(["operations", "operations"]);
    const results = frames.filter((frame) => frame.data.type === EventType.TOOL_CALL_RESULT).map((frame) => frame.data.content as string);
    expect(results.slice(2).map((content) => JSON.parse(content))).toEqual([
      expect.objectContaining({ surfaceId: "a", attempt: 2 }),
      expect.objectContaining({ surfaceId: "b", attempt: 2 }),
    ]);
  });

  it("ends a surface failed when the model gives up after a failed attempt, or its arguments cannot be read", async () => {
    const gaveUp = await createScriptedApp([render(card("a", "ghost")), { text: "I'll say it in words." }], { agent: { generatedUi: true } });
    expect(Object.values(lastStatusBy(await gaveUp.run({ threadId: "t3", runId: "r1", messages: [user("show")] })))).toEqual(["failed"]);
    const unreadable = await createScriptedApp(
      [{ toolCalls: [{ toolName: "render_a2ui", input: '{"surfaceId": "a", "components": [' }] }, { text: "Sorry." }],
      {
        agent: { generatedUi: true },
      },
    );
    expect(Object.values(lastStatusBy(await unreadable.run({ threadId: "t4", runId: "r1", messages: [user("show")] })))).toEqual(["failed"]);
  });
});
