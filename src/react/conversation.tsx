import { useContext, useSyncExternalStore } from "react";
import { sessionStatus } from "../client/index.ts";
import { isBusy } from "./is-busy.ts";
import { MessageList } from "./message-list.tsx";
import { ToolRenderersContext } from "./tool-renderers.ts";
import { useAgentSession } from "./use-agent-session.ts";
import { useTetherSession } from "./use-tether-session.ts";

/**
 * The conversation of the nearest `TetherProvider`'s session, as a log
 * (role `log`, named "Conversation"): messages, and after each assistant
 * message the tools it called with how each one ended.
 */
export function Conversation() {
  const state = useAgentSession(useTetherSession());
  const renderers = useContext(ToolRenderersContext);
  // A tool that registers its renderer after the first paint still shows its calls its way.
  const version = renderers?.version ?? noVersion;
  useSyncExternalStore(renderers?.subscribe ?? noSubscription, version, version);
  return <MessageList messages={state.messages} activities={state.activities} running={isBusy(sessionStatus(state))} {...(renderers ? { renderers } : {})} />;
}

const noSubscription = () => () => {};
const noVersion = () => 0;
