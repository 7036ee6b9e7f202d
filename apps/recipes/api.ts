import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { TetherError } from "@tether-agent/tether/protocol";
import { readJsonBody, requireJson, sameOrigin, type AuthEnv, type TetherUser } from "@tether-agent/tether/server";
import { DIETS, RECIPES, isRecipesUser, searchRecipes, type Recipe, type RecipesUser } from "./agent/index.ts";
import type { Kitchen } from "./kitchen/kitchen.ts";

const recipeId = z.string().regex(/^r-\d{3}$/, "a recipe id such as r-204");
const SaveSchema = z.object({ recipeId });
const OrderSchema = z.object({
  recipeId,
  servings: z.number().int().min(1).max(12),
  /** The tool call (or form submission) this order answers: the same id again is the same order. */
  requestId: z.string().min(1).max(128),
});

/**
 * The Recipes app's own API, for its pages and its browser tools. The
 * recipes are open to every Recipes user, guests included; a cookbook and
 * orders need a signed-in account, checked here on every request, whatever
 * tools a frontend handed the agent.
 */
export function recipesApi<User extends TetherUser>(options: { auth: MiddlewareHandler<AuthEnv<User>>; kitchen: Kitchen; trustedOrigins?: readonly string[] }) {
  const { kitchen } = options;
  const byId = new Map(RECIPES.map((recipe) => [recipe.id, recipe]));
  const recipeOf = (id: string): Recipe => {
    const recipe = byId.get(id);
    if (!recipe) throw new TetherError("not_found", `There is no recipe ${id}.`);
    return recipe;
  };
  const recipesUser = (user: TetherUser): RecipesUser => {
    if (!isRecipesUser(user)) throw new TetherError("forbidden", "Recipes is for the Recipes demo users (guest, sam, vera); sign in as one of them.");
    return user;
  };
  const account = (user: TetherUser): RecipesUser => {
    const person = recipesUser(user);
    if (!person.signedIn) throw new TetherError("forbidden", "Sign in to keep a cookbook and order ingredients; guests can browse recipes.");
    return person;
  };
  return new Hono<AuthEnv<User>>()
    .use("*", requireJson(), sameOrigin({ trustedOrigins: options.trustedOrigins ?? [] }), options.auth)
    .use(
      "*",
      bodyLimit({
        maxSize: 4096,
        onError: () => {
          throw new TetherError("body_too_large", "A Recipes request body is a few fields; this one is too large.");
        },
      }),
    )
    .get("/me", (c) => c.json({ user: recipesUser(c.var.user) }))
    .get("/recipes", (c) => {
      recipesUser(c.var.user);
      const diet = c.req.query("diet");
      if (diet && !(DIETS as readonly string[]).includes(diet)) throw new TetherError("invalid_input", `diet must be one of ${DIETS.join(", ")}.`);
      const maxMinutes = c.req.query("maxMinutes");
      if (maxMinutes && !/^[1-9]\d{0,2}$/.test(maxMinutes)) throw new TetherError("invalid_input", "maxMinutes must be a whole number of minutes, 1 to 999.");
      return c.json(
        searchRecipes(RECIPES, {
          query: c.req.query("query") ?? "",
          ...(diet ? { diet: diet as (typeof DIETS)[number] } : {}),
          ...(maxMinutes ? { maxMinutes: Number(maxMinutes) } : {}),
          limit: 100,
        }),
      );
    })
    .get("/recipes/:id", (c) => {
      recipesUser(c.var.user);
      return c.json({ recipe: recipeOf(c.req.param("id")) });
    })
    .get("/cookbook", async (c) => c.json({ cookbook: await kitchen.cookbook(account(c.var.user).id) }))
    .post("/cookbook", async (c) => {
      const user = account(c.var.user);
      const { recipeId } = await readJsonBody(c, SaveSchema, 'The body (like {"recipeId":"r-204"})');
      return c.json(await kitchen.save(user.id, recipeOf(recipeId)));
    })
    .delete("/cookbook/:id", async (c) => c.json({ removed: await kitchen.remove(account(c.var.user).id, c.req.param("id")) }))
    .get("/orders", async (c) => c.json({ orders: await kitchen.orders(account(c.var.user).id) }))
    .post("/orders", async (c) => {
      const user = account(c.var.user);
      const { recipeId, servings, requestId } = await readJsonBody(c, OrderSchema, 'The body (like {"recipeId":"r-204","servings":2,"requestId":"…"})');
      return c.json(await kitchen.placeOrder(user.id, { recipe: recipeOf(recipeId), servings, requestId }));
    });
}
