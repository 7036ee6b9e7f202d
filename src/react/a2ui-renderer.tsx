import { renderMarkdown } from "@a2ui/markdown-it";
import { A2uiSurface, MarkdownContext } from "@a2ui/react/v0_9";
import { useEffect, useMemo, useRef } from "react";
import type { SurfaceAction } from "../client/index.ts";
import { buildSurface } from "./build-surface.ts";

export interface A2uiRendererProps {
  surfaceId: string;
  /** Validated A2UI v0.9 operations (createSurface, updateComponents, updateDataModel). */
  operations: Array<Record<string, unknown>>;
  onAction(action: SurfaceAction): void;
  /** The renderer refused the operations or the surface reported an error. */
  onError(error: { code: string; message: string }): void;
}

/**
 * One surface drawn by `@a2ui/react`'s v0.9 renderer with its basic catalog:
 * the operations go through `@a2ui/web_core`'s message processor, clicks come
 * back as A2UI user actions. Loaded on demand (see SurfaceView): the renderer
 * and its schemas weigh more than the rest of the panel.
 */
export default function A2uiRenderer({ surfaceId, operations, onAction, onError }: A2uiRendererProps) {
  const handlers = useRef({ onAction, onError });
  handlers.current = { onAction, onError };
  // A new snapshot replaces the surface as a whole (the server sends `replace: true`), so each one gets a fresh processor.
  const built = useMemo(() => buildSurface(surfaceId, operations, (action) => handlers.current.onAction(action)), [surfaceId, operations]);

  useEffect(() => {
    if (built.error) return handlers.current.onError(built.error);
    const subscription = built.surface.onError.subscribe((error: { code?: string; message?: string }) =>
      handlers.current.onError({ code: String(error?.code ?? "RENDERER_ERROR"), message: String(error?.message ?? "The surface reported an error.") }),
    );
    return () => subscription.unsubscribe();
  }, [built]);

  if (built.error) return null; // the caller shows the failure it was told of
  // A2UI's own markdown pipeline (markdown-it, sanitised by DOMPurify) for Text that carries markdown.
  return (
    <MarkdownContext.Provider value={renderMarkdown}>
      <A2uiSurface surface={built.surface} />
    </MarkdownContext.Provider>
  );
}
