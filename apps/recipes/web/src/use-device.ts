import { useSyncExternalStore } from "react";
import { useQuery } from "./router.ts";

export type Device = "mobile" | "desktop";

/** Narrower than this is a phone: one column, one card, step timers. */
const NARROW = "(max-width: 639.98px)";

/**
 * Which device the page is on: `?device=mobile` or `?device=desktop` when the
 * address says so (a demo of the phone on a wide screen), otherwise the
 * viewport's width, re-read as it changes.
 */
export function useDevice(): Device {
  const asked = useQuery("device");
  const narrow = useSyncExternalStore(subscribeToWidth, () => matchMedia(NARROW).matches);
  if (asked === "mobile" || asked === "desktop") return asked;
  return narrow ? "mobile" : "desktop";
}

function subscribeToWidth(listener: () => void): () => void {
  const query = matchMedia(NARROW);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}
