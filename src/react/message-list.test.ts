import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ToolActivity } from "../client/index.ts";
import { MessageList } from "./message-list.tsx";
import { createToolRenderers, type ToolCallView } from "./tool-renderers.ts";

const messages = [
  { id: "u1", role: "user" as const, content: "set a timer" },
  {
    id: "a1",
    role: "assistant" as const,
    content: "Starting it.",
    toolCalls: [{ id: "call_1", type: "function" as const, function: { name: "startTimer", arguments: '{"seconds":90,"label":"eggs"}' } }],
  },
];
const activity = (status: ToolActivity["status"]): ToolActivity => ({ toolCallId: "call_1", toolName: "startTimer", runId: "r1", location: "browser", status });

describe("MessageList with a tool's renderer", () => {
  it("shows each call of the tool its way, with the arguments parsed and how far the call got, beside the call's line", () => {
    const renderers = createToolRenderers();
    const seen: ToolCallView[] = [];
    renderers.register("startTimer", {
      render: (call) => (seen.push(call), createElement("span", null, `${String((call.args as { label: string }).label)}: ${call.status}`)),
    });

    const html = renderToStaticMarkup(createElement(MessageList, { messages, activities: [activity("succeeded")], running: false, renderers }));

    expect(html).toContain('aria-label="startTimer view"><span>eggs: succeeded</span>');
    expect(html).toContain("startTimer"); // the honest line stays
    expect(seen).toEqual([{ toolCallId: "call_1", args: { seconds: 90, label: "eggs" }, status: "succeeded" }]);
  });

  it("gives the renderer no arguments while they are still streaming, and draws the call without a view when no renderer is registered", () => {
    const renderers = createToolRenderers();
    const streaming = [
      messages[0]!,
      { ...messages[1]!, toolCalls: [{ ...messages[1]!.toolCalls![0]!, function: { name: "startTimer", arguments: '{"seco' } }] },
    ];
    const seen: unknown[] = [];
    const unregister = renderers.register("startTimer", { render: (call) => (seen.push(call.args), null) });
    renderToStaticMarkup(createElement(MessageList, { messages: streaming, activities: [activity("calling")], running: true, renderers }));
    expect(seen).toEqual([undefined]);

    unregister();
    const html = renderToStaticMarkup(createElement(MessageList, { messages, activities: [activity("running")], running: true, renderers }));
    expect(html).not.toContain("startTimer view");
  });
});

describe("MessageList's timeline lines in words", () => {
  const line = (html: string) => /<span class="tether-activity__words">([^<]*)<\/span>/.exec(html)?.[1];

  it("uses the tool's own words when it describes its calls, and keeps the codes in the line's details", () => {
    const renderers = createToolRenderers();
    renderers.register("startTimer", {
      describe: ({ args, status }) => (status === "succeeded" ? `Started the ${(args as { label: string }).label} timer` : undefined),
    });
    const html = renderToStaticMarkup(
      createElement(MessageList, { messages, activities: [{ ...activity("succeeded"), stage: "started" }], running: false, renderers }),
    );
    expect(line(html)).toBe("Started the eggs timer");
    expect(html).toContain("<summary>Details</summary>");
    expect(html).toContain('<span class="tether-activity__tool">startTimer</span>');
    expect(html).toContain("succeeded · started");
  });

  it("falls back to the library's words: what was done, or why not", () => {
    const words = (activities: ToolActivity[]) => line(renderToStaticMarkup(createElement(MessageList, { messages, activities, running: false })));
    expect(words([activity("succeeded")])).toBe("Done: Start timer");
    expect(words([{ ...activity("failed"), reason: "access_denied" }])).toBe("Couldn&#x27;t start timer: you don&#x27;t have access");
    expect(words([activity("rejected")])).toBe("Not done: you rejected it");
    expect(words([{ ...activity("blocked"), reason: "blocked_by_mode" }])).toBe("Not done here: not while the assistant covers the screen");
    expect(words([activity("awaiting")])).toBe("Waiting for your approval: Start timer");
  });
});

describe("MessageList with a generated surface", () => {
  const surface = {
    id: "a2ui-surface-call_1",
    role: "activity" as const,
    activityType: "a2ui-surface",
    content: { a2ui_operations: [{ version: "v0.9", createSurface: { surfaceId: "s1", catalogId: "basic" } }] },
  };
  const html = (running: boolean) =>
    renderToStaticMarkup(createElement(MessageList, { messages: [surface], activities: [], running, surfaces: { onAction: () => {}, onError: () => {} } }));

  it("disables the surface's buttons while the agent is busy, as the composer's, so a click is never silently dropped", () => {
    expect(html(true)).toMatch(/<fieldset disabled=""[^>]*>.*Loading the view/);
    expect(html(false)).not.toContain("disabled");
  });
});

describe("MessageList's Regenerate", () => {
  const conversation = [
    { id: "u1", role: "user" as const, content: "what is the badge policy?" },
    { id: "a1", role: "assistant" as const, content: "Badges are checked at the north door." },
    { id: "u2", role: "user" as const, content: "and after hours?" },
    { id: "a2", role: "assistant" as const, content: "Every door checks them." },
  ];
  const marks = { stopped: new Set<string>(), onRetry: () => {}, regenerable: "a2", onRegenerate: () => {} };
  const render = (props: Partial<Parameters<typeof MessageList>[0]>) =>
    renderToStaticMarkup(createElement(MessageList, { messages: conversation, activities: [], running: false, marks, ...props }));
  const count = (html: string) => html.split(">Regenerate</button>").length - 1;

  it("is offered once, beside the answer the session would replace", () => {
    const html = render({});
    expect(count(html)).toBe(1);
    expect(html.indexOf(">Regenerate</button>")).toBeGreaterThan(html.indexOf("Every door checks them."));
  });

  it("is not offered while the agent works, or when the session has no answer to replace", () => {
    expect(count(render({ running: true }))).toBe(0);
    expect(count(render({ marks: { stopped: new Set(), onRetry: () => {} } }))).toBe(0);
  });
});
