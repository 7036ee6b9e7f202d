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
 * given none of the three is always open and cannot be closed.
 */
export function usePanelOpen({ open, defaultOpen, onOpenChange, shortcut = "/" }: PanelOpenOptions) {
  const closable = open !== undefined || defaultOpen !== undefined || onOpenChange !== undefined;
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
      event.preventDefault();
      setOpen(!isOpen);
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [closable, shortcut, isOpen, setOpen]);
  return { closable, isOpen, setOpen };
}
