import { z } from "zod";

/** The dojo's shared-state page's recipe: the page edits it between runs, the agent during them. */
export const recipeSchema = z.object({
  title: z.string().max(200),
  skill_level: z.enum(["Beginner", "Intermediate", "Advanced"]),
  cooking_time: z.enum(["5 min", "15 min", "30 min", "45 min", "60+ min"]),
  special_preferences: z.array(z.string().max(60)).max(20),
  ingredients: z.array(z.object({ icon: z.string().max(16), name: z.string().max(100), amount: z.string().max(100) })).max(60),
  instructions: z.array(z.string().max(500)).max(60),
});
export type Recipe = z.infer<typeof recipeSchema>;

/** The page's starting recipe (the dojo's INITIAL_STATE). */
export const INITIAL_RECIPE: Recipe = {
  title: "Make Your Recipe",
  skill_level: "Intermediate",
  cooking_time: "45 min",
  special_preferences: [],
  ingredients: [
    { icon: "🥕", name: "Carrots", amount: "3 large, grated" },
    { icon: "🌾", name: "All-Purpose Flour", amount: "2 cups" },
  ],
  instructions: ["Preheat oven to 350°F (175°C)"],
};
