import type { BrowserToolSpec } from "@tether-agent/tether/protocol";
import { recipeToolsFor, type Audience } from "./tool-sets.ts";

/**
 * Every tool this frontend may hand over, each name once, for the build's
 * tools.manifest.json: what `tether tools check` compares with the server's
 * allow-list. Where two audiences word a tool differently (the phone's "exactly
 * one" card), the desktop's wording is listed; the allow-list compares shapes only.
 */
export function everyRecipeTool(): BrowserToolSpec[] {
  const byName = new Map<string, BrowserToolSpec>();
  for (const mobile of [false, true])
    for (const signedIn of [true, false])
      for (const vegetarian of [true, false]) {
        const audience: Audience = { signedIn, vegetarian, mobile };
        for (const spec of recipeToolsFor(audience)) if (!byName.has(spec.name)) byName.set(spec.name, spec);
      }
  return [...byName.values()];
}
