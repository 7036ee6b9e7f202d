import type { ToolRunner } from "../tools/index.ts";
import type { TetherHttpAgent } from "../transport/index.ts";
import type { SessionStore } from "./session-store.ts";

/** The agent's open questions (`agent.pendingInterrupts`), in the session's state and on the tool timeline. */
export function showInterrupts(agent: TetherHttpAgent, runner: Pick<ToolRunner, "markAwaiting">, store: Pick<SessionStore, "set">): void {
  const open = [...agent.pendingInterrupts];
  runner.markAwaiting(open.flatMap((interrupt) => (interrupt.toolCallId ? [interrupt.toolCallId] : [])));
  store.set({ interrupts: open });
}
