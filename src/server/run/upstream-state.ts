import { EventType, type BaseEvent, type StateDeltaEvent, type StateSnapshotEvent } from "@ag-ui/core";
import { isTetherError } from "../../protocol/index.ts";
import type { RunState } from "../state/index.ts";

/**
 * An upstream agent's STATE_SNAPSHOT or STATE_DELTA, applied through the
 * run's state holder: checked against the agent's schema, then streamed by
 * the holder in Tether's own sequence and stored with the step. Returns why
 * it was refused (the event is then set aside, as other events Tether does not
 * take), or undefined when it was applied.
 */
export function applyUpstreamState(event: BaseEvent, state: RunState): string | undefined {
  try {
    if (event.type === EventType.STATE_SNAPSHOT) state.replace((event as StateSnapshotEvent).snapshot);
    else state.patch((event as StateDeltaEvent).delta);
    return undefined;
  } catch (error) {
    if (isTetherError(error)) return error.message;
    throw error;
  }
}
