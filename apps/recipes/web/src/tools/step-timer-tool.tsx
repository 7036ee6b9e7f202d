import type { AgentSession } from "@tether-agent/tether/client";
import type { BrowserToolSpec } from "@tether-agent/tether/protocol";
import { useBrowserTool } from "@tether-agent/tether/react";
import type { StartStepTimerArgs } from "../../../agent/browser-tools.ts";
import { clock } from "../countdown.ts";
import type { KitchenTimers } from "../kitchen-timers.ts";
import { ToolChip } from "./tool-chip.tsx";

/**
 * start_step_timer: a visible countdown, started by the call; it succeeded
 * once the countdown runs. The timer is named by the call, so a reload that
 * runs the call again finds it running rather than starting a second one.
 */
export function StepTimerTool({ session, spec, timers }: { session: AgentSession; spec: BrowserToolSpec<StartStepTimerArgs>; timers: KitchenTimers }) {
  useBrowserTool(session, {
    spec,
    onReload: "run-again",
    execute: ({ seconds, label }, { toolCallId }) => {
      const timer = timers.start({ id: toolCallId, seconds, label: label?.trim() || `${clock(seconds)} timer` });
      return {
        status: "succeeded",
        message: `A ${clock(seconds)} countdown is running on screen: ${timer.label}.`,
        data: { seconds, label: timer.label },
      };
    },
    render: ({ args, status, message }) => {
      const what = args ? `${clock(args.seconds)} timer${args.label ? `: ${args.label}` : ""}` : "timer";
      return (
        <ToolChip
          status={status}
          icon="⏱"
          doing={`Starting the ${what}…`}
          done={`Started the ${what}`}
          notDone={`The ${what} did not start${message ? `: ${message}` : ""}`}
        />
      );
    },
  });
  return null;
}
