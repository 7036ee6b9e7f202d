import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../client/index.ts";
import { createMemoryStorage } from "../testing/index.ts";
import { AssistantPanel } from "./assistant-panel.tsx";
import { Composer } from "./composer.tsx";
import { Conversation } from "./conversation.tsx";
import { TetherProvider } from "./tether-provider.tsx";
import { ToolTimeline } from "./tool-timeline.tsx";

const session = () => createAgentSession({ api: "/api", agentId: "assistant", storage: createMemoryStorage(), drift: "ignore" });
const inProvider = (...children: Parameters<typeof createElement>[0][]) =>
  renderToStaticMarkup(createElement(TetherProvider, { session: session() }, ...children.map((child, key) => createElement(child, { key }))));

describe("panel parts", () => {
  it("renders the conversation alone inside a provider, as a log named Conversation", () => {
    expect(inProvider(Conversation)).toContain('role="log" aria-label="Conversation"');
  });

  it("renders the composer alone inside a provider, with its message box and Send", () => {
    const html = inProvider(Composer);
    expect(html).toContain('aria-label="Message the assistant"');
    expect(html).toContain(">Send</button>");
    expect(html).not.toContain("Stop");
  });

  it("renders the tool timeline alone inside a provider", () => {
    expect(inProvider(ToolTimeline)).toBe('<ol class="tether-timeline" aria-label="Tool timeline"></ol>');
  });

  it("throws outside a provider", () => {
    expect(() => renderToStaticMarkup(createElement(Composer))).toThrow(/TetherProvider/);
  });
});

describe("AssistantPanel", () => {
  it("arranges the conversation and the composer, with the session given", () => {
    const html = renderToStaticMarkup(createElement(AssistantPanel, { session: session() }));
    expect(html).toContain('aria-label="Assistant"');
    expect(html).toContain('role="log" aria-label="Conversation"');
    expect(html).toContain('aria-label="Message the assistant"');
  });

  it("takes the provider's session when given none", () => {
    expect(inProvider(AssistantPanel)).toContain('data-mode="side"');
  });

  it("asks for a session when it has none", () => {
    expect(() => renderToStaticMarkup(createElement(AssistantPanel))).toThrow(/AssistantPanel needs a session/);
  });
});
