import type { PlaybookResult, ScriptedTurn } from "@tether-agent/tether/server";
import type { Recipe } from "./recipe.ts";
import { recipeInWords } from "./recipe-in-words.ts";
import { recipeSurface } from "./recipe-surface.ts";
import { plural } from "./wording.ts";

/**
 * The recipe as a generated surface, with only the buttons this client can
 * act on: a click comes back as the next run, and a button whose tool the
 * client did not hand over would promise what it cannot do.
 */
export function showRecipeSurface(recipe: Recipe, tools: string[]): ScriptedTurn {
  const buttons = { timers: tools.includes("start_step_timer"), save: tools.includes("save_to_cookbook") };
  return { toolCalls: [{ toolName: "render_a2ui", input: recipeSurface(recipe, buttons) }] };
}

/**
 * Speaks from the render result: the surface is on screen only when the
 * result says `rendered`; otherwise (a client whose catalog lacks what the
 * surface needs, say) the same recipe in words. The playbook's surface is
 * the same on every attempt, so it does not try again.
 */
export function afterRecipeSurface(result: PlaybookResult, recipes: ReadonlyMap<string, Recipe>): ScriptedTurn {
  const recipe = recipes.get((result.input as { data?: { recipe?: { id?: string } } } | undefined)?.data?.recipe?.id ?? "");
  const rendered = (result.output as { rendered?: unknown } | undefined)?.rendered === true;
  if (!recipe) return { text: rendered ? "Here it is." : "I couldn't show that recipe." };
  if (!rendered) {
    const why = typeof result.output === "string" && result.output.includes("[outside_catalog]") ? " (this page can't draw it)" : "";
    return { text: `I couldn't show ${recipe.title} as a card here${why}, so here it is in words. ${recipeInWords(recipe)}` };
  }
  const actions = JSON.stringify(result.input);
  const can = [actions.includes('"start_timer"') ? "start a step's timer" : "", actions.includes('"save_recipe"') ? "save it to your cookbook" : ""].filter(
    Boolean,
  );
  const buttons = can.length > 0 ? ` From the card you can ${can.join(" or ")}.` : "";
  return {
    text: `Here is ${recipe.title}: ${recipe.minutes} minutes, serves ${recipe.servings}, in ${plural(recipe.steps.length, "step")}.${buttons}`,
  };
}
