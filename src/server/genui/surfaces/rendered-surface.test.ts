import type { Message } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { actionNamesOf, findComponent, findRenderedSurface } from "./rendered-surface.ts";

const button = (id: string, name: string) => ({ id, component: "Button", child: "label", action: { event: { name, context: {} } } });
const renderCall = (callId: string, surfaceId: string, components: unknown[]): Message => ({
  id: `a-${callId}`,
  role: "assistant",
  toolCalls: [{ id: callId, type: "function", function: { name: "render_a2ui", arguments: JSON.stringify({ surfaceId, components }) } }],
});
const result = (callId: string, content: unknown): Message => ({ id: `m-${callId}`, role: "tool", toolCallId: callId, content: JSON.stringify(content) });

describe("findRenderedSurface", () => {
  it("finds the last render of the surface whose result says it was rendered", () => {
    const history: Message[] = [
      renderCall("c1", "card", [button("root", "first")]),
      result("c1", { rendered: true, surfaceId: "card", attempt: 1 }),
      renderCall("c2", "card", [button("root", "second")]),
      result("c2", { rendered: true, surfaceId: "card", attempt: 1 }),
    ];
    const surface = findRenderedSurface(history, "card");
    expect(surface).toMatchObject({ surfaceId: "card", toolCallId: "c2", resultMessageId: "m-c2" });
    expect(actionNamesOf(findComponent(surface!, "root")!)).toEqual(new Set(["second"]));
  });

  it("does not count a render that failed, a call without a result, another surface, or another tool", () => {
    const history: Message[] = [
      renderCall("c1", "card", [button("root", "x")]),
      { id: "m-c1", role: "tool", toolCallId: "c1", content: "A2UI validation failed\n[missing_child] components[0]: …" },
      renderCall("c2", "card", [button("root", "x")]),
      renderCall("c3", "other", [button("root", "x")]),
      result("c3", { rendered: true, surfaceId: "other" }),
      {
        id: "a4",
        role: "assistant",
        toolCalls: [{ id: "c4", type: "function", function: { name: "show_card", arguments: JSON.stringify({ surfaceId: "card", components: [] }) } }],
      },
      result("c4", { rendered: true, surfaceId: "card" }),
    ];
    expect(findRenderedSurface(history, "card")).toBeUndefined();
    expect(findRenderedSurface(history, "other")?.toolCallId).toBe("c3");
  });
});

describe("actionNamesOf", () => {
  it("collects every event action among a component's properties, and none from one without", () => {
    expect(actionNamesOf({ id: "b", component: "Button", action: { event: { name: "save" } } })).toEqual(new Set(["save"]));
    expect(actionNamesOf({ id: "f", component: "Form", onSubmit: { event: { name: "submit" } }, extra: [{ event: { name: "reset" } }] })).toEqual(
      new Set(["submit", "reset"]),
    );
    expect(actionNamesOf({ id: "t", component: "Text", text: "Hello" })).toEqual(new Set());
  });
});
