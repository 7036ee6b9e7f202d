import { createPlaybookModel, defineAgent, type Agent, type PlaybookModelOptions } from "@tether-agent/tether/server";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { RECIPES_BROWSER_TOOLS } from "./browser-tools.ts";
import { recipesInstructions } from "./instructions.ts";
import { createRecipesPlaybook } from "./playbook.ts";
import { recipeTools } from "./recipe-tools.ts";
import { RECIPES } from "./recipes.ts";
import { isRecipesUser } from "./users.ts";

export interface RecipesAgentOptions {
  /** A real model; without one the agent runs on the offline Recipes playbook. */
  model?: LanguageModelV3;
  playbook?: PlaybookModelOptions;
  /** How long an order's approval may wait; default 15 minutes. */
  approvalTimeoutMs?: number;
  /** Generated UI: a recipe as a surface with its timer and save buttons. On unless set to false. */
  generatedUi?: boolean;
}

/**
 * The Recipes agent: stateless (the client owns the history, so any instance
 * can take the next turn), two server tools over the shipped recipes, and an
 * allow-list of five browser tools of which each frontend hands over the ones
 * that fit its device and its user; a recipe can be shown as a generated
 * surface whose buttons use those same tools.
 */
export function createRecipesAgent(options: RecipesAgentOptions = {}): Agent {
  return defineAgent({
    id: "recipes",
    description: "Recipe assistant: finds recipes and shows them as cards; saves, orders and times steps where the frontend allows it.",
    model: options.model ?? createPlaybookModel(createRecipesPlaybook(RECIPES), options.playbook),
    instructions: recipesInstructions,
    tools: recipeTools(RECIPES),
    browserTools: RECIPES_BROWSER_TOOLS,
    browserToolPolicy: "strict",
    history: "client",
    allowUser: isRecipesUser,
    // On by default: the demo server creates this agent without options for it.
    generatedUi: options.generatedUi ?? true,
    ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
  });
}

export { RECIPES_USERS, isRecipesUser, type RecipesUser } from "./users.ts";
export { RECIPES } from "./recipes.ts";
export { DIETS, type Diet, type Ingredient, type Recipe, type RecipeStep } from "./recipe.ts";
export { searchRecipes, type RecipeQuery, type RecipeSearchResult, type RecipeSummary } from "./search-recipes.ts";
export * from "./browser-tools.ts";
export { createRecipesPlaybook, offerLimit } from "./playbook.ts";
