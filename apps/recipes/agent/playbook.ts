import { parseToolOutcome } from "@tether-agent/tether/protocol";
import type { Playbook, PlaybookConversation, PlaybookResult, ScriptedTurn } from "@tether-agent/tether/server";
import type { OfferRecipesArgs } from "./browser-tools.ts";
import { readIntent, readNumber, type RecipesIntent } from "./intents.ts";
import type { Recipe } from "./recipe.ts";
import { afterRecipeSurface, showRecipeSurface } from "./recipe-surface-turns.ts";
import type { RecipeSearchResult, RecipeSummary } from "./search-recipes.ts";
import { ORDINALS, clip, plural, spoken } from "./wording.ts";
import { afterSurfaceClick, type SurfaceClick } from "./surface-click.ts";
import { swapFor, swapsFor, type IngredientSwap } from "./swaps.ts";

const REAL_MODEL_HINT = "To talk with a real model instead, set TETHER_MODEL (for example openai:gpt-4o-mini with OPENAI_API_KEY) and restart the server.";

/**
 * The Recipes playbook: how the offline model answers. Like a real model it
 * works only with the tools this request handed over, and follows what their
 * descriptions say (how many recipes to offer per call); what it cannot do
 * here it says, with what the person can do instead.
 */
export function createRecipesPlaybook(recipes: readonly Recipe[]): Playbook {
  const byId = new Map(recipes.map((recipe) => [recipe.id, recipe]));
  // Longest first, so "egg fried rice" is found before "rice".
  const byTitle = [...recipes].sort((a, b) => b.title.length - a.title.length);

  /** The recipe the person means: named, on screen, or the one offered last. */
  function focusOf(conversation: PlaybookConversation): { recipe?: Recipe; choices?: Recipe[]; unknownId?: string } {
    const said = conversation.userText.toLowerCase();
    const namedId = said.match(/\br-\d{3}\b/)?.[0];
    // A recipe named that does not exist is said so, never swapped for the one on screen.
    if (namedId && !byId.has(namedId)) return { unknownId: namedId };
    const named = byId.get(namedId ?? "") ?? byTitle.find((recipe) => said.includes(recipe.title.toLowerCase()));
    if (named) return { recipe: named };
    const ordinal = ORDINALS.findIndex((words) => words.test(said));
    const onScreen = byId.get(conversation.system.match(/On screen: recipe (r-\d{3})/)?.[1] ?? "");
    if (onScreen) return { recipe: onScreen };
    for (const result of [...conversation.all].reverse()) {
      const input = result.input as { recipeId?: string; recipes?: OfferRecipesArgs["recipes"] } | undefined;
      if (result.toolName === "offer_recipes" && input?.recipes?.length) {
        const offered = input.recipes.flatMap((entry) => byId.get(entry.id) ?? []);
        // "the second one", after cards or after "which one?"
        if (ordinal >= 0 && offered[ordinal]) return { recipe: offered[ordinal] };
        return offered.length === 1 ? { recipe: offered[0]! } : { choices: offered };
      }
      const id = input?.recipeId ?? (result.toolName === "getRecipe" ? (result.output as Recipe | undefined)?.id : undefined);
      if (id && byId.has(id)) return { recipe: byId.get(id)! };
    }
    return {};
  }

  function whichRecipe(conversation: PlaybookConversation, action: string): ScriptedTurn | Recipe {
    const { recipe, choices, unknownId } = focusOf(conversation);
    if (unknownId) return { text: `There is no recipe ${unknownId}. Ask me for ideas and I'll show you what there is.` };
    if (recipe) return recipe;
    if (choices?.length) return { text: `Which one should I ${action}: ${choices.map((choice) => choice.title).join(", ")}?` };
    return { text: `Which recipe should I ${action}? Ask me for ideas first ("something quick with leftover rice?"), or name one ("egg fried rice").` };
  }

  function respondTo(intent: RecipesIntent, conversation: PlaybookConversation): ScriptedTurn {
    const has = (tool: string) => conversation.tools.includes(tool);
    switch (intent.kind) {
      case "find":
        return {
          toolCalls: [
            {
              toolName: "searchRecipes",
              input: { query: intent.query, ...(intent.diet ? { diet: intent.diet } : {}), ...(intent.maxMinutes ? { maxMinutes: intent.maxMinutes } : {}) },
            },
          ],
        };
      case "show": {
        const recipe = whichRecipe(conversation, "show");
        return isRecipe(recipe) ? { toolCalls: [{ toolName: "getRecipe", input: { recipeId: recipe.id } }] } : recipe;
      }
      case "save": {
        if (!has("save_to_cookbook")) return { text: "Saving recipes needs an account: sign in, and I can save recipes to your cookbook." };
        const recipe = whichRecipe(conversation, "save");
        if (!isRecipe(recipe)) return recipe;
        return { text: `Saving ${recipe.title} to your cookbook…`, toolCalls: [{ toolName: "save_to_cookbook", input: { recipeId: recipe.id } }] };
      }
      case "order": {
        if (!has("order_ingredients")) return { text: "Ordering ingredients needs an account: sign in, and I can order what a recipe needs once you approve." };
        const recipe = whichRecipe(conversation, "order the ingredients for");
        if (!isRecipe(recipe)) return recipe;
        const servings = intent.servings ?? recipe.servings;
        // Said before anyone is asked to approve: an order takes 1 to 12 whole servings.
        if (intent.unclearServings || servings > 12) {
          return { text: `I can order for 1 to 12 servings, in whole servings${intent.unclearServings ? ` (not ${intent.unclearServings})` : ""}. How many?` };
        }
        return {
          text: `I'll order the ingredients for ${recipe.title} (${plural(servings, "serving")}) once you approve.`,
          toolCalls: [{ toolName: "order_ingredients", input: { recipeId: recipe.id, servings } }],
        };
      }
      case "timer":
        return timer(intent, conversation);
      case "swap":
        return swap(intent, conversation);
      case "greet":
        return { text: `Hello! ${canDo(conversation)}` };
      case "help":
        return {
          text: `I'm the recipe assistant, running on Tether's offline playbook model: a script, not a language model. ${canDo(conversation)} ${REAL_MODEL_HINT}`,
        };
      case "unknown":
        return {
          text: `I'm the offline playbook model, a script rather than a language model, so I didn't understand that. ${canDo(conversation)} ${REAL_MODEL_HINT}`,
        };
    }
  }

  function timer(intent: Extract<RecipesIntent, { kind: "timer" }>, conversation: PlaybookConversation): ScriptedTurn {
    if (!conversation.tools.includes("start_step_timer")) {
      return { text: "I can't start timers from this page, so your kitchen timer will have to do." };
    }
    const { recipe } = focusOf(conversation);
    const stepNumber = intent.step ?? readNumber(conversation.system.match(/On screen: recipe r-\d{3}[^\n]*?step (\d+)/)?.[1]);
    const step = recipe && stepNumber ? recipe.steps[stepNumber - 1] : undefined;
    if (recipe && stepNumber && !step) return { text: `${recipe.title} has ${recipe.steps.length} steps, so there is no step ${stepNumber}.` };
    const seconds = intent.seconds ?? step?.seconds;
    if (!seconds) return { text: 'How long should the timer run? Say, for example, "set a timer for 5 minutes", or open a recipe step and ask for its timer.' };
    if (seconds > 14_400) return { text: "A step timer runs for at most 4 hours. How long should it run?" };
    const label = step ? clip(`Step ${stepNumber}: ${step.text}`, 80) : `${spoken(seconds)} timer`;
    return { text: `Starting a ${spoken(seconds)} timer…`, toolCalls: [{ toolName: "start_step_timer", input: { seconds, label } }] };
  }

  function swap(intent: Extract<RecipesIntent, { kind: "swap" }>, conversation: PlaybookConversation): ScriptedTurn {
    if (intent.ingredient) {
      const found = swapFor(intent.ingredient);
      return found ? offerSwaps([found], conversation) : { text: `I don't know a good swap for ${intent.ingredient}.` };
    }
    const recipe = whichRecipe(conversation, "suggest swaps for");
    return isRecipe(recipe) ? { toolCalls: [{ toolName: "getRecipe", input: { recipeId: recipe.id } }] } : recipe;
  }

  function afterResult(result: PlaybookResult, conversation: PlaybookConversation): ScriptedTurn {
    if (result.isError) return { text: `That didn't work: ${errorMessage(result.output)}` };
    switch (result.toolName) {
      case "searchRecipes":
        return withUnaskedSwaps(afterSearch(result.output as RecipeSearchResult, conversation), conversation);
      case "getRecipe": {
        const recipe = result.output as Recipe;
        if (readIntent(conversation.userText).kind === "swap") {
          const swaps = swapsFor(recipe.ingredients.map((ingredient) => ingredient.name));
          return swaps.length > 0 ? offerSwaps(swaps, conversation) : { text: `${recipe.title} needs no swaps I know of.` };
        }
        return showRecipe(recipe, conversation);
      }
      case "save_to_cookbook":
        return afterSave(result);
      case "start_step_timer":
        return afterTimer(result);
      case "order_ingredients":
        return afterOrder(result);
      case "render_a2ui":
        return afterRecipeSurface(result, byId);
      case "log_a2ui_event":
        // A click on a surface: the person's turn, with the button's action as what they asked.
        return afterSurfaceClick(result.input as SurfaceClick | undefined, byId, conversation.tools);
      default:
        return { text: "Done." };
    }
  }

  function afterSave(result: PlaybookResult): ScriptedTurn {
    const title = byId.get((result.input as { recipeId?: string } | undefined)?.recipeId ?? "")?.title ?? "the recipe";
    const outcome = parseToolOutcome(result.output);
    if (outcome?.status === "succeeded") {
      return { text: outcome.data?.alreadySaved ? `${title} was already in your cookbook.` : `Saved ${title} to your cookbook.` };
    }
    if (!outcome) return { text: `I asked to save ${title}, but the page didn't say whether it was saved.` };
    if (outcome.status === "unknown") return { text: `I can't tell whether ${title} was saved${because(outcome.message)}` };
    return { text: `I couldn't save ${title}${outcome.message ? `: ${outcome.message}` : "."}` };
  }

  function afterOrder(result: PlaybookResult): ScriptedTurn {
    const input = result.input as { recipeId?: string; servings?: number } | undefined;
    const title = byId.get(input?.recipeId ?? "")?.title ?? "the recipe";
    const refusal = result.output as { status?: string; comment?: string } | undefined;
    if (refusal?.status === "rejected") return { text: `I didn't order anything: the order was declined${refusal.comment ? ` ("${refusal.comment}")` : ""}.` };
    if (refusal?.status === "cancelled") return { text: "The order was cancelled; nothing was ordered." };
    const outcome = parseToolOutcome(result.output);
    if (outcome?.status === "succeeded") {
      const orderId = typeof outcome.data?.orderId === "string" ? ` Your order number is ${outcome.data.orderId}.` : "";
      const servings = input?.servings ? ` (${plural(input.servings, "serving")})` : "";
      // `repeated` is this call's own order, placed before a reload cut the answer off: the request id is the call's id.
      return { text: `Ordered the ingredients for ${title}${servings}.${orderId}` };
    }
    if (!outcome) return { text: `I asked to order the ingredients for ${title}, but I can't tell whether the order went through.` };
    if (outcome.status === "unknown") return { text: `I can't tell whether the order for ${title} went through${because(outcome.message)}` };
    return { text: `The order for ${title} didn't go through${outcome.message ? `: ${outcome.message}` : "."}` };
  }

  /**
   * When the swaps tool's description asks for swaps "without being asked"
   * (a vegetarian's frontend), the cards come with swaps for the meat and
   * fish in them.
   */
  function withUnaskedSwaps(turn: ScriptedTurn, conversation: PlaybookConversation): ScriptedTurn {
    const swapsTool = conversation.offered.find((tool) => tool.name === "suggest_ingredient_swaps");
    const offer = turn.toolCalls?.find((call) => call.toolName === "offer_recipes");
    if (!offer || !swapsTool || !/without being asked/i.test(swapsTool.description)) return turn;
    const ingredients = (offer.input as OfferRecipesArgs).recipes.flatMap((card) => byId.get(card.id)?.ingredients.map((ingredient) => ingredient.name) ?? []);
    const swaps = swapsFor(ingredients, { meatOnly: true });
    if (swaps.length === 0) return turn;
    return { ...turn, toolCalls: [...turn.toolCalls!, { toolName: "suggest_ingredient_swaps", input: { swaps: swaps.slice(0, 8) } }] };
  }

  return {
    name: "recipes",
    respond(conversation) {
      const latest = conversation.results.at(-1);
      // A script that keeps calling tools would loop until the step limit; stop and say so instead.
      if (latest && conversation.turnsSinceUser >= 4) return { text: "I've stopped here so as not to go round in circles. What would you like to do next?" };
      return latest ? afterResult(latest, conversation) : respondTo(readIntent(conversation.userText), conversation);
    },
  };
}

/** How many recipes one offer_recipes call may show, as its description says: "exactly one", "at most three". */
export function offerLimit(conversation: PlaybookConversation): number {
  const description = conversation.offered.find((tool) => tool.name === "offer_recipes")?.description.toLowerCase() ?? "";
  const count = description.match(/\b(?:exactly|at most|up to|no more than|only) (\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b/)?.[1];
  return readNumber(count) ?? 3;
}

function afterSearch(search: RecipeSearchResult, conversation: PlaybookConversation): ScriptedTurn {
  const what = search.query ? `"${search.query}"` : "that";
  const limits = [search.diet, search.maxMinutes ? `ready in ${search.maxMinutes} minutes or less` : ""].filter(Boolean).join(", ");
  if (search.total === 0) return { text: `I couldn't find a recipe for ${what}${limits ? ` (${limits})` : ""}. Try other words, or fewer limits.` };
  const opener = /\bleftover/.test(search.query) ? "Leftovers are basically a free dinner. " : "";
  if (!conversation.tools.includes("offer_recipes")) {
    const list = search.recipes.slice(0, 3).map((recipe) => `${recipe.title} (${recipe.id}, ${recipe.minutes} min)`);
    return { text: `${opener}A few ideas: ${list.join("; ")}.` };
  }
  const picks = search.recipes.slice(0, offerLimit(conversation));
  const cards: OfferRecipesArgs = { recipes: picks.map((recipe) => ({ id: recipe.id, title: recipe.title, reason: reasonFor(recipe) })) };
  const toolCalls: NonNullable<ScriptedTurn["toolCalls"]> = [{ toolName: "offer_recipes", input: cards }];
  return { text: `${opener}${picks.length === 1 ? "Here's one idea:" : `${picks.length} ideas:`}`, toolCalls };
}

function showRecipe(recipe: Recipe, conversation: PlaybookConversation): ScriptedTurn {
  if (conversation.tools.includes("render_a2ui")) return showRecipeSurface(recipe, conversation.tools);
  const needs = recipe.ingredients.map((ingredient) => ingredient.name).join(", ");
  const text = `${recipe.title} takes ${recipe.minutes} minutes and serves ${recipe.servings}, in ${recipe.steps.length} steps. You'll need ${needs}.`;
  if (!conversation.tools.includes("offer_recipes")) return { text };
  return { text, toolCalls: [{ toolName: "offer_recipes", input: { recipes: [{ id: recipe.id, title: recipe.title, reason: reasonFor(recipe) }] } }] };
}

function offerSwaps(swaps: IngredientSwap[], conversation: PlaybookConversation): ScriptedTurn {
  if (conversation.tools.includes("suggest_ingredient_swaps")) {
    return { text: swaps.length === 1 ? "Here's a swap:" : "Some swaps:", toolCalls: [{ toolName: "suggest_ingredient_swaps", input: { swaps } }] };
  }
  // The notes are written for chips ("no eggs? tofu works too"); in a sentence, only the ones that add something.
  return {
    text: swaps
      .map((swap) => `Instead of ${swap.ingredient}, try ${swap.swap}${swap.note && !swap.note.startsWith("no ") ? ` (${swap.note})` : ""}.`)
      .join(" "),
  };
}

function afterTimer(result: PlaybookResult): ScriptedTurn {
  const input = result.input as { seconds?: number; label?: string } | undefined;
  const outcome = parseToolOutcome(result.output);
  const what = `${spoken(input?.seconds ?? 0)} timer${input?.label ? ` (${input.label})` : ""}`;
  if (outcome?.status === "succeeded") return { text: `Your ${what} is running.` };
  if (!outcome) return { text: `I asked for a ${what}, but I can't tell whether it started.` };
  if (outcome.status === "unknown") return { text: `I can't tell whether the ${what} started${because(outcome.message)}` };
  return { text: `The ${what} didn't start${outcome.message ? `: ${outcome.message}` : "."}` };
}

/** ": what the page said." or "."; an outcome's message is the page's own sentence. */
function because(message: string | undefined): string {
  return message ? `: ${message}` : ".";
}

function canDo(conversation: PlaybookConversation): string {
  const has = (tool: string) => conversation.tools.includes(tool);
  const can = ['find recipes ("something quick with leftover rice?")'];
  if (has("suggest_ingredient_swaps")) can.push('suggest swaps ("no eggs?")');
  if (has("save_to_cookbook")) can.push('save one to your cookbook ("save it")');
  if (has("order_ingredients")) can.push('order its ingredients once you approve ("order the ingredients for 4")');
  if (has("start_step_timer")) can.push('time a step ("start a timer")');
  const last = can.pop()!;
  return `I can ${can.length ? `${can.join(", ")} and ${last}` : last}.${has("save_to_cookbook") ? "" : " Sign in to save recipes and order ingredients."}`;
}

function reasonFor(recipe: RecipeSummary): string {
  return `Ready in ${recipe.minutes} minutes. ${recipe.summary}`.slice(0, 200);
}

function isRecipe(value: ScriptedTurn | Recipe): value is Recipe {
  return "id" in value;
}

function errorMessage(output: unknown): string {
  const error = (output as { error?: { message?: unknown } })?.error;
  return typeof error?.message === "string" ? error.message : "the tool reported an error.";
}
