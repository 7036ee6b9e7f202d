import type { SessionStore } from "./session-store.ts";
import type { TetherHttpAgent } from "../transport/index.ts";

/** A message the server never took leaves the conversation when the next one is sent (or it is sent again). */
export function dropUnsent(agent: TetherHttpAgent, store: SessionStore): void {
  const unsent = store.get().unsent;
  if (!unsent) return;
  agent.setMessages(agent.messages.filter((message) => message.id !== unsent.messageId));
  store.set({ unsent: undefined, messages: [...agent.messages] });
}
