import type { Message } from "@ag-ui/core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ToolActivity } from "../client/index.ts";
import { MessageList } from "./message-list.tsx";
import type { ServerToolCallView } from "./server-tool-call.ts";
import { createToolRenderers } from "./tool-renderers.ts";
import { useToolRenderer } from "./use-tool-renderer.ts";

type Weather = { temperature: number; conditions: string };

const question: Message = { id: "u1", role: "user", content: "weather in Paris?" };
const asked = (args: string): Message => ({
  id: "a1",
  role: "assistant",
  content: "",
  toolCalls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: args } }],
});
const answered: Message = { id: "t1", role: "tool", toolCallId: "call_1", content: '{"temperature":18,"conditions":"Clear"}' };
const activity = (status: ToolActivity["status"], more: Partial<ToolActivity> = {}): ToolActivity => ({
  toolCallId: "call_1",
  toolName: "get_weather",
  runId: "r1",
  location: "server",
  status,
  ...more,
});

/** The weather card of the dojo's backend_tool_rendering page, reduced to its words. */
const weatherCard = ({ status, partialArgs, result }: ServerToolCallView<{ location: string }, Weather>) =>
  status === "done" && result
    ? createElement("section", { "aria-label": "Weather" }, `${partialArgs?.location}: ${result.temperature}°, ${result.conditions}`)
    : createElement("p", { role: "status" }, `Checking the weather in ${partialArgs?.location ?? "…"} (${status})`);

const html = (messages: Message[], activities: ToolActivity[], renderers = createToolRenderers()) =>
  renderToStaticMarkup(createElement(MessageList, { messages, activities, running: false, renderers }));

describe("MessageList with a server tool's renderer", () => {
  it("draws the call with its arguments while they stream and while it runs, then with its result, in place of the line", () => {
    const renderers = createToolRenderers();
    renderers.registerServer("get_weather", weatherCard);

    const streaming = html([question, asked('{"location":"Par')], [activity("calling")], renderers);
    expect(streaming).toContain('<p role="status">Checking the weather in Par (streaming)</p>');
    const running = html([question, asked('{"location":"Paris"}')], [activity("calling")], renderers);
    expect(running).toContain('aria-label="get_weather view" data-tool-call-id="call_1" data-status="calling"');
    expect(running).toContain("Checking the weather in Paris (running)");

    const done = html([question, asked('{"location":"Paris"}'), answered], [activity("done")], renderers);
    expect(done).toContain('<section aria-label="Weather">Paris: 18°, Clear</section>');
    expect(done).not.toContain("tether-activity__words"); // the card stands in place of the line
  });

  it("draws the default line when no renderer is registered for the tool, or the call ran in the browser", () => {
    const renderers = createToolRenderers();
    const line = html([question, asked('{"location":"Paris"}'), answered], [activity("done")], renderers);
    expect(line).toContain('<span class="tether-activity__words">Done: Get weather</span>');
    expect(line).not.toContain("get_weather view");

    renderers.registerServer("get_weather", weatherCard);
    const inBrowser = html([question, asked('{"location":"Paris"}')], [activity("succeeded", { location: "browser" })], renderers);
    expect(inBrowser).toContain("Done: Get weather");
    expect(inBrowser).not.toContain("Weather");
  });

  it("draws the line instead when the renderer throws, and the rest of the conversation still", () => {
    const renderers = createToolRenderers();
    renderers.registerServer("get_weather", ({ partialArgs }) => createElement("p", null, (partialArgs as { location: string }).location.toUpperCase()));
    const broken = html([question, asked(""), { id: "a2", role: "assistant", content: "One moment." }], [activity("calling")], renderers);
    expect(broken).toContain('<span class="tether-activity__words">Get weather…</span>');
    expect(broken).toContain("One moment.");
    // Once the arguments are there the same renderer draws.
    expect(html([question, asked('{"location":"Paris"}')], [activity("calling")], renderers)).toContain("<p>PARIS</p>");
  });

  it("stops drawing once unregistered", () => {
    const renderers = createToolRenderers();
    const unregister = renderers.registerServer("get_weather", weatherCard);
    unregister();
    expect(html([question, asked('{"location":"Paris"}'), answered], [activity("done")], renderers)).toContain("Done: Get weather");
  });
});

describe("useToolRenderer", () => {
  it("asks for a TetherProvider when there is none", () => {
    const Weather = () => (useToolRenderer("get_weather", () => null), null);
    expect(() => renderToStaticMarkup(createElement(Weather))).toThrow('useToolRenderer("get_weather") needs a <TetherProvider');
  });
});
