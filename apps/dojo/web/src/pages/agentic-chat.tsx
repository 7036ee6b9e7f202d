import { useState } from "react";
import { flushSync } from "react-dom";
import type { ToolOutcome } from "@tether-agent/tether/protocol";
import type { SessionState } from "@tether-agent/tether/client";
import { useBrowserTool, useSessionState, useTetherSession } from "@tether-agent/tether/react";
import { changeBackground } from "../../../agent/browser-tools.ts";
import { ChatLayout, type PageProps } from "../parts/layouts.tsx";
import { useWeatherCards } from "../parts/weather-card.tsx";

/** agentic_chat: a chat on a backdrop the agent recolours with the page's browser tool; the weather drawn as cards. */
export function AgenticChatPage({ panel }: PageProps) {
  const session = useTetherSession();
  const [changed, setChanged] = useState<string>();
  // After a reload: the last background the page's tool drew in this conversation.
  const drawn = useSessionState(session, lastDrawnBackground);
  const background = changed ?? drawn;
  useBrowserTool(session, {
    spec: changeBackground,
    execute: ({ background: asked }): ToolOutcome => {
      // A value CSS does not take would leave the page as it was: say so rather than claim a change.
      if (!CSS.supports("background", asked)) {
        return { status: "failed", reason: "not_a_css_background", message: `"${asked}" is not a CSS background; the page did not change.` };
      }
      flushSync(() => setChanged(asked));
      return { status: "succeeded", message: `The page's background is now ${asked}.` };
    },
    describe: ({ args, status }) => (status === "succeeded" && args ? `Changed the background to ${args.background}` : undefined),
  });
  useWeatherCards();
  return (
    <ChatLayout
      label="Chat backdrop"
      panel={panel}
      {...(background ? { style: { background } } : {})}
      aside={
        <p className="backdrop__note">
          Background: <code>{background ?? "the page's own"}</code>
        </p>
      }
    />
  );
}

/** The background of the conversation's last change_background call that succeeded, from its arguments. */
function lastDrawnBackground(state: SessionState): string | undefined {
  const done = state.activities.filter((activity) => activity.toolName === changeBackground.name && activity.status === "succeeded").at(-1);
  if (!done) return undefined;
  for (const message of state.messages) {
    const call = message.role === "assistant" ? message.toolCalls?.find((candidate) => candidate.id === done.toolCallId) : undefined;
    if (!call) continue;
    try {
      const { background } = JSON.parse(call.function.arguments) as { background?: unknown };
      return typeof background === "string" ? background : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
