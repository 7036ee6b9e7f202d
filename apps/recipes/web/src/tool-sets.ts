import type { BrowserToolSpec } from "@tether-agent/tether/protocol";
import { offerRecipes, orderIngredients, saveToCookbook, startStepTimer, suggestIngredientSwaps } from "../../agent/browser-tools.ts";

/** What the frontend knows about where it runs and who uses it; the server never sees this, only the tools it leads to. */
export interface Audience {
  signedIn: boolean;
  vegetarian: boolean;
  mobile: boolean;
}

/**
 * The tools a frontend hands the agent, and how it describes them: the
 * description is the instruction channel, so the rule for how many cards to
 * show lives here, with the layout that needs it, and not in a prompt.
 */
export const DESKTOP_OFFER = withDescriptions(
  offerRecipes,
  "Show the user a set of recipe suggestions as clickable cards. Call this whenever you recommend recipes instead of listing them in text. Offer at most three recipes per call and keep each reason to one short sentence.",
  { "recipes.items.reason": "Why this recipe fits the request, in one short sentence." },
);

export const MOBILE_OFFER = withDescriptions(offerRecipes, "Show the user one recipe as a full-width card. Offer exactly one recipe per call.", {
  "recipes.items.reason": "Why this recipe fits, in a few words: the screen is small.",
});

export const MOBILE_TIMER = withDescriptions(
  startStepTimer,
  "Start a countdown for the current cooking step when the recipe mentions a duration. The person's hands are busy: start it when they ask for a timer.",
);

export const SWAPS = withDescriptions(
  suggestIngredientSwaps,
  "Show ingredient swaps as small chips, such as 'no eggs? tofu works too'. The person is vegetarian: offer swaps for meat and fish without being asked, and for anything they say they lack.",
);

/** guest: cards only; signed in: also save and order; vegetarian: also swaps; phone: one card per call, and step timers. */
export function recipeToolsFor(audience: Audience): BrowserToolSpec[] {
  const tools: BrowserToolSpec[] = [audience.mobile ? MOBILE_OFFER : DESKTOP_OFFER];
  if (audience.signedIn) tools.push(saveToCookbook, orderIngredients);
  if (audience.vegetarian) tools.push(SWAPS);
  if (audience.mobile) tools.push(MOBILE_TIMER);
  return tools;
}

/**
 * A copy of a spec with the frontend's own wording, at the top and at depth
 * (`recipes.items.reason` names the `reason` property of the array's items).
 * Only annotations change: the allow-list compares shapes.
 */
function withDescriptions<Args>(spec: BrowserToolSpec<Args>, description: string, nested: Record<string, string> = {}): BrowserToolSpec<Args> {
  const parameters = structuredClone(spec.parameters) as Record<string, unknown>;
  for (const [path, text] of Object.entries(nested)) {
    let schema = parameters;
    for (const name of path.split("."))
      schema = (name === "items" ? schema.items : (schema.properties as Record<string, unknown>)[name]) as Record<string, unknown>;
    schema.description = text;
  }
  return { ...spec, description, parameters: parameters as BrowserToolSpec<Args>["parameters"] };
}
