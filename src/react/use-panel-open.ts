import { useCallback, useEffect, useState } from "react";

export interface PanelOpenOptions {
  open?: boolean | undefined;
  defaultOpen?: boolean | undefined;
  onOpenChange?: ((open: boolean) => void) | undefined;
  /** A key that, pressed with Ctrl (⌘ on a Mac), opens and closes the panel; null for none. */
  shortcut?: string | null | undefined;
}

/**
 * Whether the panel is open, controlled (`open` with `onOpenChange`) or kept
 * here (`defaultOpen`), and the keyboard shortcut that toggles it. A panel
 * without `onOpenChange` or `defaultOpen` cannot be closed from inside.
 */
export function usePanelOpen({ open, defaultOpen, onOpenChange, shortcut = "/" }: PanelOpenOptions) {
  // An app that sets `open` without hearing of changes keeps the say: nothing here may close the panel then.
  const closable = onOpenChange !== undefined || (open === undefined && defaultOpen !== undefined);
  const [kept, setKept] = useState(defaultOpen ?? true);
  const isOpen = !closable || (open ?? kept);
  const setOpen = useCallback(
    (next: boolean) => {
      if (open === undefined) setKept(next);
      onOpenChange?.(next);
    },
    [open, onOpenChange],
  );
  useEffect(() => {
    if (!closable || !shortcut) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== shortcut.toLowerCase() || !(event.ctrlKey || event.metaKey) || event.altKey || event.isComposing) return;
      // The app's own use of the key wins, and a held key toggles once.
      if (event.defaultPrevented || event.repeat) return;
      event.preventDefault();
      setOpen(!isOpen);
    };
    // After the page's own listeners (bubbling, on window), so one that handles the key first is seen as having done so.
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [closable, shortcut, isOpen, setOpen]);
  return { closable, isOpen, setOpen };
}
