import type { ScriptedTurn } from "@tether-agent/tether/server";
import type { Recipe } from "./recipe.ts";
import { clip, spoken } from "./wording.ts";

/** A click on a recipe surface, as the server records it in the `log_a2ui_event` call: the button's action and what the page reported. */
export interface SurfaceClick {
  name?: string;
  surfaceId?: string;
  context?: Record<string, unknown>;
}

/**
 * The person's click, taken as their turn: "Start timer" starts that step's
 * timer, "Save to cookbook" saves the recipe, each with the browser tool
 * this client handed over in this run. A button from an earlier surface may
 * reach a client without that tool (the same thread, opened on a desktop):
 * then it is said, and nothing is called.
 */
export function afterSurfaceClick(click: SurfaceClick | undefined, recipes: ReadonlyMap<string, Recipe>, tools: string[]): ScriptedTurn {
  const recipe = recipes.get(recipeIdOf(click));
  if (click?.name !== "start_timer" && click?.name !== "save_recipe") {
    return { text: `That button (${click?.name ?? "unnamed"}) is not one I know what to do with.` };
  }
  if (!recipe) return { text: "I couldn't tell which recipe that button was for." };
  if (click.name === "save_recipe") {
    if (!tools.includes("save_to_cookbook")) return { text: `Saving recipes needs an account: sign in, and I can save ${recipe.title} to your cookbook.` };
    return { text: `Saving ${recipe.title} to your cookbook…`, toolCalls: [{ toolName: "save_to_cookbook", input: { recipeId: recipe.id } }] };
  }
  const number = stepOf(click.context?.step);
  const step = number ? recipe.steps[number - 1] : undefined;
  if (!number || !step) return { text: `I couldn't tell which step of ${recipe.title} that timer was for.` };
  // The page reports the context unchecked; how long the step takes is the recipe's to say.
  const timer = `${spoken(step.seconds)} timer for step ${number}`;
  if (!tools.includes("start_step_timer")) return { text: `This device can't run timers, so I didn't start the ${timer}. Your kitchen timer will have to do.` };
  return {
    text: `Starting the ${timer}…`,
    toolCalls: [{ toolName: "start_step_timer", input: { seconds: step.seconds, label: clip(`Step ${number}: ${step.text}`, 80) } }],
  };
}

/** The recipe the button carries, or the one the surface shows (`recipe-r-204`) when the page sent no id. */
function recipeIdOf(click: SurfaceClick | undefined): string {
  const carried = click?.context?.recipeId;
  if (typeof carried === "string") return carried;
  return click?.surfaceId?.match(/^recipe-(r-\d{3})$/)?.[1] ?? "";
}

function stepOf(value: unknown): number | undefined {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number > 0 ? number : undefined;
}
