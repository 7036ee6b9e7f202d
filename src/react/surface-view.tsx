import { Component, lazy, Suspense, useCallback, useRef, useState, type ReactNode } from "react";
import type { SurfaceAction, SurfaceActivity } from "../client/index.ts";

// The A2UI renderer and its schemas load with the first surface: a panel that never shows one never pays for them.
const A2uiRenderer = lazy(() => import("./a2ui-renderer.tsx"));

export interface SurfaceViewProps {
  /** The surface's activity message id (`a2ui-surface-<toolCallId>`): its place in the conversation. */
  messageId: string;
  activity: SurfaceActivity;
  /** A click on one of the surface's buttons: the next run. */
  onAction(action: SurfaceAction): void;
  /** The surface could not be shown here; told once per failure. */
  onError(error: { surfaceId?: string; code: string; message: string }): void;
  /** The agent is busy: the session would refuse a click, so the buttons are off until it is done. */
  disabled?: boolean;
}

/**
 * A generated surface at its place in the conversation: `building` and
 * `retrying` as a short status, the validated operations drawn by A2UI's
 * React renderer, and a failure (generation or rendering) as a small note,
 * never a blank.
 */
export function SurfaceView({ messageId, activity, onAction, onError, disabled = false }: SurfaceViewProps) {
  const [rendererError, setRendererError] = useState<string>();
  const reported = useRef(new Set<string>());
  const surfaceId = activity.status === "ready" ? activity.surfaceId : undefined;
  const fail = useCallback(
    (error: { code: string; message: string }) => {
      // The person gets one line; the server gets the whole message.
      setRendererError(error.message.split("\n")[0]!.slice(0, 200));
      const key = `${error.code}:${error.message}`;
      if (reported.current.has(key)) return;
      reported.current.add(key);
      onError({ ...(surfaceId ? { surfaceId } : {}), ...error });
    },
    [onError, surfaceId],
  );

  if (activity.status === "building") {
    return (
      <div className="tether-surface tether-surface--building" role="status" data-surface={messageId}>
        Preparing a view{activity.progressTokens ? ` (${activity.progressTokens} tokens so far)` : ""}…
      </div>
    );
  }
  if (activity.status === "retrying") {
    return (
      <div className="tether-surface tether-surface--retrying" role="status" data-surface={messageId}>
        The view did not pass its checks; trying again (attempt {activity.attempt} of {activity.maxAttempts}).
      </div>
    );
  }
  if (activity.status === "failed" || rendererError) {
    return (
      <div className="tether-surface tether-surface--failed" role="note" aria-label="View not shown" data-surface={messageId}>
        This view could not be shown: {rendererError ?? (activity.status === "failed" ? activity.error : "")}
      </div>
    );
  }
  return (
    <section className="tether-surface" aria-label="Generated view" data-surface={messageId} data-surface-id={activity.surfaceId}>
      {/* A disabled fieldset turns off every button the renderer draws; `contents` keeps it out of the layout. */}
      <fieldset disabled={disabled} style={{ display: "contents" }}>
        <RendererBoundary onError={fail}>
          <Suspense fallback={<span role="status">Loading the view…</span>}>
            <A2uiRenderer surfaceId={activity.surfaceId} operations={activity.operations} onAction={onAction} onError={fail} />
          </Suspense>
        </RendererBoundary>
      </fieldset>
    </section>
  );
}

/** Turns a renderer that throws while drawing into a reported failure. */
class RendererBoundary extends Component<{ onError(error: { code: string; message: string }): void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    this.props.onError({ code: "RENDERER_THREW", message: error instanceof Error ? error.message : String(error) });
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
