import type { RunHub } from "./port.ts";

/** Whether any instance is running the run: this process at once, else the shared bus's view of its stream. */
export async function isRunLive(hub: RunHub, runId: string): Promise<boolean> {
  if (hub.isLive(runId)) return true;
  return (await hub.tail(runId))?.live ?? false;
}
