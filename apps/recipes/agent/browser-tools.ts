import { defineBrowserTool, type BrowserToolArguments } from "@tether-agent/tether/protocol";
import { z } from "zod";
import { RECIPES } from "./recipes.ts";

/**
 * The Recipes agent's browser-tool allow-list: the names and shapes a
 * frontend may hand over. The descriptions here are defaults; each frontend
 * sends its own (desktop "at most three", mobile "exactly one"), and the
 * model follows the one it was sent.
 */
const recipeId = z
  .string()
  .regex(/^r-\d{3}$/)
  .describe("A recipe id from search results, such as r-204.");

export const offerRecipes = defineBrowserTool({
  name: "offer_recipes",
  description: "Show the user recipe suggestions as clickable cards instead of listing them in text.",
  kind: "render-only",
  parameters: z.object({
    recipes: z
      .array(
        z.object({
          id: recipeId,
          title: z.string().min(1).max(120),
          reason: z.string().min(1).max(200).describe("Why this recipe fits the request."),
        }),
      )
      .min(1)
      .max(12),
  }),
});

export const suggestIngredientSwaps = defineBrowserTool({
  name: "suggest_ingredient_swaps",
  description: "Show ingredient swaps as chips, such as tofu for eggs.",
  kind: "render-only",
  parameters: z.object({
    swaps: z
      .array(
        z.object({
          ingredient: z.string().min(1).max(80),
          swap: z.string().min(1).max(80),
          note: z.string().max(160).optional(),
        }),
      )
      .min(1)
      .max(8),
  }),
});

export const saveToCookbook = defineBrowserTool({
  name: "save_to_cookbook",
  description: "Save a recipe to the signed-in user's cookbook. Say it is saved only once the result says so.",
  parameters: z.object({ recipeId }),
});

export const startStepTimer = defineBrowserTool({
  name: "start_step_timer",
  description: "Start a visible countdown for the current cooking step.",
  parameters: z.object({
    seconds: z.number().int().min(1).max(14_400),
    label: z.string().max(80).optional(),
  }),
});

const TITLES = new Map(RECIPES.map((recipe) => [recipe.id, recipe.title]));

export const orderIngredients = defineBrowserTool({
  name: "order_ingredients",
  description: "Order a recipe's ingredients for delivery. The person approves every order first; say it is ordered only once the result says so.",
  needsApproval: true,
  approvalMessage: ({ recipeId, servings }) => `Order the ingredients for ${TITLES.get(recipeId) ?? recipeId} (${servings} servings)?`,
  parameters: z.object({
    recipeId,
    servings: z.number().int().min(1).max(12),
  }),
});

export const RECIPES_BROWSER_TOOLS = [offerRecipes, suggestIngredientSwaps, saveToCookbook, startStepTimer, orderIngredients];

export type OfferRecipesArgs = BrowserToolArguments<typeof offerRecipes>;
export type SuggestIngredientSwapsArgs = BrowserToolArguments<typeof suggestIngredientSwaps>;
export type SaveToCookbookArgs = BrowserToolArguments<typeof saveToCookbook>;
export type StartStepTimerArgs = BrowserToolArguments<typeof startStepTimer>;
export type OrderIngredientsArgs = BrowserToolArguments<typeof orderIngredients>;
