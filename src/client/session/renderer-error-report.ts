import { SURFACE_MESSAGE_PREFIX } from "../surface-activity.ts";
import type { RendererErrorReport } from "./session-types.ts";

/**
 * A surface the page could not show, as the run's record takes it (`renderer-error`, bounded), with the browser
 * call that produced the surface when its activity message names one (`a2ui-surface-<toolCallId>`).
 */
export function rendererErrorReport(report: RendererErrorReport): { toolCallId: string | undefined; body: Record<string, unknown> } {
  const toolCallId = report.activityMessageId?.startsWith(SURFACE_MESSAGE_PREFIX) ? report.activityMessageId.slice(SURFACE_MESSAGE_PREFIX.length) : undefined;
  return {
    toolCallId,
    body: {
      kind: "renderer-error",
      ...(report.surfaceId ? { surfaceId: report.surfaceId.slice(0, 128) } : {}),
      message: report.message.slice(0, 4000),
      ...(report.details !== undefined ? { details: report.details } : {}),
    },
  };
}
