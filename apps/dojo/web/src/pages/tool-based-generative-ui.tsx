import { useMemo } from "react";
import type { Message } from "@ag-ui/core";
import type { SessionState } from "@tether-agent/tether/client";
import { useBrowserTool, useSessionState, useTetherSession } from "@tether-agent/tether/react";
import { generateHaiku } from "../../../agent/browser-tools.ts";
import { HaikuCard, type Haiku } from "../parts/haiku-card.tsx";
import { SplitLayout, type PageProps } from "../parts/layouts.tsx";

const selectMessages = (state: SessionState) => state.messages;

/**
 * tool_based_generative_ui: the render-only browser tool generate_haiku draws
 * each haiku as a card in the conversation; the page keeps them all, newest
 * first, read from the conversation (so a reload shows them again).
 */
export function ToolBasedGenerativeUiPage({ panel }: PageProps) {
  const session = useTetherSession();
  useBrowserTool(session, {
    spec: generateHaiku,
    // Drawn by `render` from the call's arguments; nothing else to do, and nothing for the agent to wait for.
    execute: () => ({ status: "succeeded", message: "The haiku is shown to the person as a card." }),
    describe: ({ status }) => (status === "succeeded" ? "Drew the haiku" : undefined),
    render: ({ args }) =>
      args ? (
        <HaikuCard haiku={args} />
      ) : (
        <p className="tool-note" role="status">
          <span className="spinner" aria-hidden="true" /> Writing a haiku…
        </p>
      ),
  });
  const messages = useSessionState(session, selectMessages);
  const haiku = useMemo(() => haikuIn(messages).reverse(), [messages]);
  const stage = (
    <div className="gallery">
      <h2>Haiku</h2>
      {haiku.length === 0 ? (
        <p className="muted">None yet. Ask for one (“Write me a haiku about nature.”) and it appears here and in the conversation.</p>
      ) : (
        <ol className="gallery__list" aria-label="Haiku written">
          {haiku.map((entry, index) => (
            <li key={entry.id}>
              <HaikuCard haiku={entry.haiku} size={index === 0 ? "large" : "small"} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
  return <SplitLayout label="Haiku gallery" stage={stage} panel={panel} />;
}

/** Every generate_haiku call in the conversation whose arguments are complete. */
function haikuIn(messages: Message[]): Array<{ id: string; haiku: Haiku }> {
  return messages.flatMap((message) =>
    message.role === "assistant"
      ? (message.toolCalls ?? []).flatMap((call) => {
          if (call.function.name !== generateHaiku.name) return [];
          const haiku = parseHaiku(call.function.arguments);
          return haiku ? [{ id: call.id, haiku }] : [];
        })
      : [],
  );
}

function parseHaiku(text: string): Haiku | undefined {
  try {
    const value = JSON.parse(text) as Partial<Haiku>;
    const lines = (list: unknown) => Array.isArray(list) && list.every((line) => typeof line === "string");
    if (lines(value.japanese) && lines(value.english) && typeof value.image_name === "string" && typeof value.gradient === "string") return value as Haiku;
  } catch {
    // Still streaming: not a haiku yet.
  }
  return undefined;
}
