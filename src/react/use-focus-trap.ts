import { useEffect, type RefObject } from "react";

const FOCUSABLE =
  "a[href], button:not([disabled]), textarea:not([disabled]), input:not([disabled]), select:not([disabled]), summary, iframe, [contenteditable=''], [contenteditable='true'], [tabindex]:not([tabindex='-1'])";

/**
 * While `active`, Tab and Shift+Tab cycle inside `container` (the WAI-ARIA
 * dialog pattern), and focus moves in when it is outside: to the message box
 * when there is one.
 */
export function useFocusTrap(container: RefObject<HTMLElement | null>, active: boolean): void {
  useEffect(() => {
    const root = container.current;
    if (!active || !root) return;
    if (!root.contains(document.activeElement)) (root.querySelector<HTMLElement>("textarea") ?? root).focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Tab") return;
      const targets = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0);
      const first = targets[0];
      const last = targets.at(-1);
      if (!first || !last) return event.preventDefault();
      // The container itself (focused by a click on its background) counts as before the first.
      const inside = root.contains(document.activeElement) && document.activeElement !== root;
      if (event.shiftKey && (!inside || document.activeElement === first)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (!inside || document.activeElement === last)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown, true);
    return () => document.removeEventListener("keydown", onKeyDown, true);
  }, [container, active]);
}
