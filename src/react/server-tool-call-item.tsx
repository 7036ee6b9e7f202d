import { Component, useEffect, useRef, useState, type ReactNode } from "react";
import type { ToolActivity } from "../client/index.ts";
import { serverToolCallView, type ServerToolRenderer } from "./server-tool-call.ts";
import { ToolActivityItem } from "./tool-activity-item.tsx";

/** A tool's renderer failed to draw one of its calls. */
export interface ToolRendererError {
  toolCallId: string;
  toolName: string;
  message: string;
}

/**
 * A server tool's call drawn by its renderer (useToolRenderer), in place of
 * its line. A renderer that throws, or draws a component that throws, leaves
 * the line instead: the panel goes on, and the error is told once per call
 * and message. It is tried again when the call moves on (more arguments, its
 * result), so a renderer that cannot yet draw half-streamed arguments still
 * draws the call once they are complete.
 */
export function ServerToolCallItem({
  activity,
  argumentsText,
  resultContent,
  render,
  onError,
}: {
  activity: ToolActivity;
  argumentsText: string | undefined;
  resultContent: unknown;
  render: ServerToolRenderer;
  onError?: ((error: ToolRendererError) => void) | undefined;
}) {
  const reported = useRef(new Set<string>());
  const [thrownByComponent, setThrownByComponent] = useState<{ message: string; moment: string }>();
  const moment = `${activity.status}\u0000${argumentsText ?? ""}\u0000${typeof resultContent === "string" ? resultContent : JSON.stringify(resultContent)}`;
  let drawn: ReactNode;
  let thrown: string | undefined;
  try {
    drawn = render(serverToolCallView(activity, argumentsText, resultContent));
  } catch (error) {
    thrown = messageOf(error);
  }
  const failure = thrown ?? (thrownByComponent?.moment === moment ? thrownByComponent.message : undefined);
  useEffect(() => {
    if (failure === undefined || reported.current.has(failure)) return;
    reported.current.add(failure);
    onError?.({ toolCallId: activity.toolCallId, toolName: activity.toolName, message: failure });
  }, [failure, onError, activity.toolCallId, activity.toolName]);

  if (failure !== undefined) return <ToolActivityItem activity={activity} />;
  return (
    <li
      className="tether-tool-view tether-tool-view--server"
      aria-label={`${activity.toolName} view`}
      data-tool-call-id={activity.toolCallId}
      data-status={activity.status}
    >
      {/* A boundary that caught gives way to the line, so the next moment mounts a fresh one. */}
      <RendererBoundary onError={(message) => setThrownByComponent({ message, moment })}>{drawn}</RendererBoundary>
    </li>
  );
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Catches a component the renderer drew that throws while drawing, which no try around `render` can. */
class RendererBoundary extends Component<{ onError(message: string): void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    this.props.onError(messageOf(error));
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
