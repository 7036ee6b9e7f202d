import { defineState, defineTool, type Playbook, type ScriptedTurn } from "@tether-agent/tether/server";
import { z } from "zod";
import { INITIAL_RECIPE, recipeSchema, type Recipe } from "./recipe.ts";
import { stateFromPrompt } from "./state-in-prompt.ts";

// The recipe lives in recipe.ts (the /dojo/ page bundles it); still exported here, beside its agent.
export { INITIAL_RECIPE, recipeSchema, type Recipe };

export const recipeState = z.object({ recipe: recipeSchema });
export const sharedRecipe = defineState(recipeState, { initial: { recipe: INITIAL_RECIPE } });

/**
 * Writes the whole recipe into the shared state. Its `recipe` argument is
 * also predicted into state as the model streams it (the agent's
 * `predictState`), so the page shows the recipe growing before the call ends.
 */
export const generateRecipe = defineTool({
  name: "generate_recipe",
  description: "Write the recipe into the shared state the page shows. Always send the whole recipe: every ingredient and every instruction, changed or not.",
  parameters: z.object({ recipe: recipeSchema }),
  execute: ({ recipe }, context) => {
    sharedRecipe.in(context).set({ recipe });
    return { updated: true, title: recipe.title };
  },
});

export const sharedState = {
  id: "shared_state",
  description: "A recipe the page and the agent edit together, kept in the thread's shared state.",
  instructions:
    "You help the person with the recipe in the shared state. The page may have changed it since your last turn: always start from the state you are shown. " +
    "To change it, call generate_recipe with the whole recipe. Respect the special preferences (Vegetarian, Vegan, Low Carb…).",
  tools: [generateRecipe],
  state: sharedRecipe,
  predictState: [{ tool: "generate_recipe", argument: "recipe", stateKey: "recipe" }],
  welcome: { greeting: "How can I help you today?", suggestions: ["Give me a pasta recipe", "Improve the recipe", "Give me all the ingredients"] },
};

const PASTA: Recipe = {
  title: "Garlic Tomato Pasta",
  skill_level: "Beginner",
  cooking_time: "30 min",
  special_preferences: [],
  ingredients: [
    { icon: "🍝", name: "Pasta", amount: "400 g" },
    { icon: "🧂", name: "Salt", amount: "1 tbsp, for the water" },
    { icon: "🫒", name: "Olive Oil", amount: "3 tbsp" },
    { icon: "🧄", name: "Garlic", amount: "4 cloves, sliced" },
    { icon: "🍅", name: "Tomatoes", amount: "500 g, chopped" },
  ],
  instructions: [
    "Bring a large pot of salted water to the boil",
    "Cook the pasta until al dente",
    "Warm the olive oil and fry the garlic until golden",
    "Add the tomatoes and simmer for 10 minutes",
    "Toss the drained pasta with the sauce and serve",
  ],
};

/** The offline model for shared_state: it reads the recipe from the state in its prompt, as a model does. */
export const sharedStatePlaybook: Playbook = {
  name: "shared_state",
  respond(conversation) {
    const [latest] = conversation.results.slice(-1);
    if (latest?.toolName === "generate_recipe") {
      return latest.isError
        ? { text: "I couldn't update the recipe." }
        : { text: `Done! The recipe "${(latest.input as { recipe: Recipe }).recipe.title}" is updated.` };
    }
    const recipe = stateFromPrompt(conversation.system, recipeState)?.recipe ?? INITIAL_RECIPE;
    const said = conversation.userText;
    if (/ingredient/i.test(said) && !/add|improve|recipe of|recipe with/i.test(said)) return { text: ingredientsWords(recipe) };
    if (/improve/i.test(said)) return write(improve(recipe));
    if (/pasta/i.test(said)) return write({ ...PASTA, special_preferences: recipe.special_preferences });
    if (/recipe/i.test(said)) return write(improve(recipe));
    return { text: 'I can write a recipe ("Give me a pasta recipe"), improve the one on the page, or list its ingredients.' };
  },
};

const write = (recipe: Recipe): ScriptedTurn => ({ toolCalls: [{ toolName: "generate_recipe", input: { recipe } }] });

/** One more ingredient and one more step, kept to the person's preferences. */
function improve(recipe: Recipe): Recipe {
  const vegan = recipe.special_preferences.includes("Vegan");
  const extra = vegan ? { icon: "🌿", name: "Fresh Basil", amount: "1 handful" } : { icon: "🧀", name: "Parmesan", amount: "50 g, grated" };
  const has = recipe.ingredients.some((ingredient) => ingredient.name === extra.name);
  return {
    ...recipe,
    title: recipe.title.startsWith("Improved ") ? recipe.title : `Improved ${recipe.title}`,
    ingredients: has ? recipe.ingredients : [...recipe.ingredients, extra],
    instructions: [...recipe.instructions, `Finish with the ${extra.name.toLowerCase()} just before serving`],
  };
}

function ingredientsWords(recipe: Recipe): string {
  if (recipe.ingredients.length === 0) return "The recipe has no ingredients yet.";
  return `The recipe "${recipe.title}" has:\n${recipe.ingredients.map((ingredient) => `- ${ingredient.name}: ${ingredient.amount}`).join("\n")}`;
}
