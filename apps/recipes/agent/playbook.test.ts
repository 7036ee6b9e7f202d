import type { BrowserToolSpec } from "@tether-agent/tether/protocol";
import type { PlaybookConversation, PlaybookResult, PlaybookTool, ScriptedTurn } from "@tether-agent/tether/server";
import { describe, expect, it } from "vitest";
import { DESKTOP_OFFER, MOBILE_OFFER, recipeToolsFor } from "../web/src/tool-sets.ts";
import { offerRecipes, orderIngredients, saveToCookbook, startStepTimer, suggestIngredientSwaps } from "./browser-tools.ts";
import { createRecipesPlaybook, offerLimit } from "./playbook.ts";
import { recipeTools } from "./recipe-tools.ts";
import { RECIPES } from "./recipes.ts";

const playbook = createRecipesPlaybook(RECIPES);
const serverTools = recipeTools(RECIPES);
const SERVER_TOOL_NAMES = serverTools.map((tool) => tool.name);
const byId = new Map(RECIPES.map((recipe) => [recipe.id, recipe]));

/** The tools as the model sees them: the server's, then the browser tools this frontend handed over, with its descriptions. */
function offered(browserTools: BrowserToolSpec[]): PlaybookTool[] {
  return [
    ...serverTools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters })),
    ...browserTools.map((spec) => ({ name: spec.name, description: spec.description, inputSchema: spec.parameters })),
  ];
}

const GUEST_DESKTOP = recipeToolsFor({ signedIn: false, vegetarian: false, mobile: false });
const SAM_DESKTOP = recipeToolsFor({ signedIn: true, vegetarian: false, mobile: false });
const VERA_DESKTOP = recipeToolsFor({ signedIn: true, vegetarian: true, mobile: false });
const SAM_MOBILE = recipeToolsFor({ signedIn: true, vegetarian: false, mobile: true });
const TOOL_SETS: Array<[string, BrowserToolSpec[]]> = [
  ["guest desktop", GUEST_DESKTOP],
  ["sam desktop", SAM_DESKTOP],
  ["vera desktop", VERA_DESKTOP],
  ["sam mobile", SAM_MOBILE],
  ["no browser tools", []],
];

/** A conversation whose latest message is the user's. */
function conversation(userText: string, browserTools: BrowserToolSpec[], more: Partial<PlaybookConversation> = {}): PlaybookConversation {
  const tools = offered(browserTools);
  return {
    userText,
    userTexts: [userText],
    results: [],
    sinceUser: [],
    all: [],
    system: "",
    tools: tools.map((tool) => tool.name),
    offered: tools,
    turnsSinceUser: 0,
    ...more,
  };
}

/** The same conversation after tool results came back for the turn before. */
function after(previous: PlaybookConversation, results: PlaybookResult[]): PlaybookConversation {
  return {
    ...previous,
    results,
    sinceUser: [...previous.sinceUser, ...results],
    all: [...previous.all, ...results],
    turnsSinceUser: previous.turnsSinceUser + 1,
  };
}

let counter = 0;
function result(toolName: string, input: unknown, output: unknown, isError = false): PlaybookResult {
  return { toolCallId: `call_${++counter}`, toolName, input, output, isError };
}

/** Runs a server tool as the runtime would, and gives its result as the playbook reads it. */
async function serverResult(call: { toolName: string; input: unknown }): Promise<PlaybookResult> {
  const tool = serverTools.find((candidate) => candidate.name === call.toolName)!;
  try {
    return result(call.toolName, call.input, await tool.execute(call.input as never, {} as never));
  } catch (error) {
    return result(call.toolName, call.input, { error: { code: "not_found", message: (error as Error).message } }, true);
  }
}

/**
 * Plays one user turn to its end as the run loop does: server tools run and
 * the model speaks again; the turn stops at browser calls (their outcome
 * comes back later) or at the model's last words.
 */
async function play(start: PlaybookConversation): Promise<{ turns: ScriptedTurn[]; last: PlaybookConversation }> {
  const turns: ScriptedTurn[] = [];
  let current = start;
  for (let step = 0; step < 8; step++) {
    const turn = playbook.respond(current);
    turns.push(turn);
    const calls = turn.toolCalls ?? [];
    if (calls.length === 0 || calls.some((call) => !SERVER_TOOL_NAMES.includes(call.toolName))) break;
    current = after(current, await Promise.all(calls.map(serverResult)));
  }
  return { turns, last: current };
}

const callsOf = (turns: ScriptedTurn[]) => turns.flatMap((turn) => turn.toolCalls ?? []);
const textOf = (turns: ScriptedTurn[]) => turns.map((turn) => turn.text ?? "").join(" ");

describe("offerLimit", () => {
  const withOffer = (description: string) => conversation("", [{ ...offerRecipes, description }]);
  it.each([
    ["Offer at most three recipes per call.", 3],
    ["Offer exactly one recipe per call.", 1],
    ["Offer at most 2 recipes per call.", 2],
    ["Show up to five cards.", 5],
    ["No more than 4 recipes.", 4],
    ["Show the user recipe suggestions as clickable cards.", 3],
  ])("reads %j as %i", (description, limit) => {
    expect(offerLimit(withOffer(description))).toBe(limit);
  });

  it("reads the desktop and mobile frontends' own descriptions: three and one", () => {
    expect(offerLimit(conversation("", [DESKTOP_OFFER]))).toBe(3);
    expect(offerLimit(conversation("", [MOBILE_OFFER]))).toBe(1);
  });

  it("is 3 when offer_recipes is not offered at all", () => {
    expect(offerLimit(conversation("", []))).toBe(3);
  });
});

describe("the Recipes playbook", () => {
  it("answers leftover rice with searchRecipes (quick: 20 minutes), then one offer_recipes call of three cards, Egg fried rice first", async () => {
    const { turns } = await play(conversation("Something quick with leftover rice?", SAM_DESKTOP));
    expect(callsOf(turns).map((call) => call.toolName)).toEqual(["searchRecipes", "offer_recipes"]);
    expect(turns[0]!.toolCalls![0]!.input).toEqual({ query: "something with leftover rice", maxMinutes: 20 });
    const cards = (turns[1]!.toolCalls![0]!.input as { recipes: Array<{ id: string; title: string; reason: string }> }).recipes;
    expect(cards).toHaveLength(3);
    expect(cards[0]).toMatchObject({ id: "r-204", title: "Egg fried rice" });
    for (const card of cards) {
      expect(byId.get(card.id)!.minutes).toBeLessThanOrEqual(20);
      expect(card.title).toBe(byId.get(card.id)!.title);
      expect(card.reason.length).toBeLessThanOrEqual(200);
    }
  });

  it("offers exactly one card when the phone's description says exactly one", async () => {
    const { turns } = await play(conversation("Something quick with leftover rice?", SAM_MOBILE));
    const offer = callsOf(turns).find((call) => call.toolName === "offer_recipes")!;
    expect((offer.input as { recipes: unknown[] }).recipes).toEqual([expect.objectContaining({ id: "r-204" })]);
  });

  it("lists ideas in words when no offer_recipes was handed over", async () => {
    const { turns } = await play(conversation("Something quick with leftover rice?", []));
    expect(callsOf(turns).map((call) => call.toolName)).toEqual(["searchRecipes"]);
    expect(turns.at(-1)!.text).toContain("Egg fried rice (r-204, 15 min)");
  });

  describe("never calls a tool it was not given", () => {
    const ASKS = [
      "Something quick with leftover rice?",
      "save egg fried rice",
      "save it",
      "order the ingredients for egg fried rice for 4",
      "set a timer for 5 minutes",
      "start a timer",
      "What can I use instead of eggs?",
      "any swaps for r-238?",
      "show me r-204",
      "hello",
      "what can you do",
      "tell me a joke",
    ];
    const CONTEXTS = ["", "On screen: recipe r-204 (Egg fried rice), step 2 of 5"];
    it.each(TOOL_SETS)("with the %s tool set, whatever is asked and shown", async (_name, browserTools) => {
      let calls = 0;
      for (const ask of ASKS) {
        for (const system of CONTEXTS) {
          const { turns } = await play(conversation(ask, browserTools, { system }));
          for (const call of callsOf(turns)) {
            calls++;
            expect([...SERVER_TOOL_NAMES, ...browserTools.map((tool) => tool.name)], `${ask} (${system || "no context"})`).toContain(call.toolName);
          }
        }
      }
      expect(calls).toBeGreaterThan(0);
    });
  });

  describe("saving", () => {
    it("tells a guest to sign in instead of saving", async () => {
      const { turns } = await play(conversation("save egg fried rice", GUEST_DESKTOP));
      expect(callsOf(turns)).toEqual([]);
      expect(textOf(turns)).toMatch(/sign in/i);
    });

    it("saves the recipe named", async () => {
      const { turns } = await play(conversation("save egg fried rice", SAM_DESKTOP));
      expect(callsOf(turns)).toEqual([{ toolName: "save_to_cookbook", input: { recipeId: "r-204" } }]);
    });

    it('asks which one for "save it" after three cards, and saves the one card shown', async () => {
      const cards = (ids: string[]) =>
        result("offer_recipes", { recipes: ids.map((id) => ({ id, title: byId.get(id)!.title, reason: "x" })) }, { status: "succeeded" });
      const three = await play(conversation("save it", SAM_DESKTOP, { all: [cards(["r-204", "r-241", "r-243"])] }));
      expect(callsOf(three.turns)).toEqual([]);
      expect(textOf(three.turns)).toBe("Which one should I save: Egg fried rice, Rice and bean burrito bowl, Vegetable fried rice?");
      const one = await play(conversation("save it", SAM_DESKTOP, { all: [cards(["r-241"])] }));
      expect(callsOf(one.turns)).toEqual([{ toolName: "save_to_cookbook", input: { recipeId: "r-241" } }]);
    });

    it('takes "the second one" as the second card offered', async () => {
      const cards = result("offer_recipes", { recipes: ["r-204", "r-241", "r-243"].map((id) => ({ id, title: byId.get(id)!.title, reason: "x" })) }, {});
      const { turns } = await play(conversation("save the second one", SAM_DESKTOP, { all: [cards] }));
      expect(callsOf(turns)).toEqual([{ toolName: "save_to_cookbook", input: { recipeId: "r-241" } }]);
    });

    it("says a named recipe does not exist rather than acting on the one on screen", async () => {
      for (const asked of ["save r-999", "order r-999 for 2", "show me r-999"]) {
        const { turns } = await play(conversation(asked, SAM_DESKTOP, { system: "On screen: recipe r-204 (Egg fried rice), step 1 of 6" }));
        expect(callsOf(turns), asked).toEqual([]);
        expect(textOf(turns), asked).toBe("There is no recipe r-999. Ask me for ideas and I'll show you what there is.");
      }
    });

    it("asks for whole servings from 1 to 12 before anyone is asked to approve", async () => {
      for (const asked of ["order egg fried rice for 1.5", "order egg fried rice for 13"]) {
        const { turns } = await play(conversation(asked, SAM_DESKTOP));
        expect(callsOf(turns), asked).toEqual([]);
        expect(textOf(turns), asked).toMatch(/^I can order for 1 to 12 servings, in whole servings/);
      }
      const one = await play(conversation("order egg fried rice for 1", SAM_DESKTOP));
      expect(textOf(one.turns)).toContain("(1 serving)");
    });

    it('saves the recipe on screen for "save it"', async () => {
      const { turns } = await play(conversation("save it", SAM_DESKTOP, { system: "On screen: recipe r-204 (Egg fried rice), step 2 of 5" }));
      expect(callsOf(turns)).toEqual([{ toolName: "save_to_cookbook", input: { recipeId: "r-204" } }]);
    });

    it.each([
      [{ status: "succeeded", data: { alreadySaved: false } }, "Saved Egg fried rice to your cookbook."],
      [{ status: "succeeded", data: { alreadySaved: true } }, "Egg fried rice was already in your cookbook."],
      [
        { status: "failed", reason: "executor_failed", message: "The cookbook is not reachable." },
        "I couldn't save Egg fried rice: The cookbook is not reachable.",
      ],
      [
        { status: "unknown", reason: "page_reloaded", message: "The page was reloaded while save_to_cookbook was running." },
        "I can't tell whether Egg fried rice was saved: The page was reloaded while save_to_cookbook was running.",
      ],
      ["not an outcome", "I asked to save Egg fried rice, but the page didn't say whether it was saved."],
    ])("speaks the outcome %j honestly", (output, text) => {
      const asked = conversation("save egg fried rice", SAM_DESKTOP);
      expect(playbook.respond(after(asked, [result("save_to_cookbook", { recipeId: "r-204" }, output)]))).toEqual({ text });
    });
  });

  describe("timers", () => {
    it("says it cannot start timers here when start_step_timer was not handed over", async () => {
      const { turns } = await play(conversation("set a timer for 5 minutes", SAM_DESKTOP));
      expect(callsOf(turns)).toEqual([]);
      expect(textOf(turns)).toMatch(/can't start timers from this page/);
    });

    it("starts a timer for an explicit duration", async () => {
      const { turns } = await play(conversation("set a timer for 5 minutes", SAM_MOBILE));
      expect(callsOf(turns)).toEqual([{ toolName: "start_step_timer", input: { seconds: 300, label: "5-minute timer" } }]);
    });

    it("says there is no such step rather than asking how long", async () => {
      const { turns } = await play(conversation("start a timer for step 9", SAM_MOBILE, { system: "On screen: recipe r-204 (Egg fried rice), step 2 of 6" }));
      expect(callsOf(turns)).toEqual([]);
      expect(textOf(turns)).toBe(`Egg fried rice has ${byId.get("r-204")!.steps.length} steps, so there is no step 9.`);
    });

    it("times the step on screen when no duration is said", async () => {
      const step = byId.get("r-204")!.steps[1]!;
      const { turns } = await play(conversation("start a timer", SAM_MOBILE, { system: "On screen: recipe r-204 (Egg fried rice), step 2 of 5" }));
      const [call] = callsOf(turns) as Array<{ toolName: string; input: { seconds: number; label: string } }>;
      expect(call).toMatchObject({ toolName: "start_step_timer", input: { seconds: step.seconds } });
      // Cut at a word, within the tool's 80 characters.
      expect(call!.input.label.length).toBeLessThanOrEqual(80);
      expect(`Step 2: ${step.text}`.startsWith(call!.input.label.replace(/…$/, ""))).toBe(true);
      expect(call!.input.label).toMatch(/^Step 2: .*(\w…|\w\.?)$/);
    });

    it("asks how long when it knows neither a duration nor a step", async () => {
      const { turns } = await play(conversation("start a timer", SAM_MOBILE));
      expect(callsOf(turns)).toEqual([]);
      expect(textOf(turns)).toMatch(/How long should the timer run/);
    });

    it.each([
      [{ status: "succeeded" }, "Your 5-minute timer (5-minute timer) is running."],
      [{ status: "blocked", reason: "blocked_by_mode", message: "Timers are off." }, "The 5-minute timer (5-minute timer) didn't start: Timers are off."],
      [{ status: "unknown", message: "The page was reloaded." }, "I can't tell whether the 5-minute timer (5-minute timer) started: The page was reloaded."],
    ])("speaks the outcome %j honestly", (output, text) => {
      const asked = conversation("set a timer for 5 minutes", SAM_MOBILE);
      expect(playbook.respond(after(asked, [result("start_step_timer", { seconds: 300, label: "5-minute timer" }, output)]))).toEqual({ text });
    });
  });

  describe("ingredient swaps", () => {
    it("shows swap chips when suggest_ingredient_swaps was handed over", async () => {
      const { turns } = await play(conversation("What can I use instead of eggs?", VERA_DESKTOP));
      expect(callsOf(turns)).toEqual([
        { toolName: "suggest_ingredient_swaps", input: { swaps: [{ ingredient: "eggs", swap: "silken tofu", note: "no eggs? tofu works too" }] } },
      ]);
    });

    it("says the swap in words when it was not", async () => {
      const { turns } = await play(conversation("What can I use instead of eggs?", SAM_DESKTOP));
      expect(callsOf(turns)).toEqual([]);
      expect(textOf(turns)).toBe("Instead of eggs, try silken tofu.");
    });

    it("reads the recipe first for swaps in a recipe, then offers them for its ingredients", async () => {
      const { turns } = await play(conversation("any swaps for r-238?", VERA_DESKTOP));
      expect(callsOf(turns).map((call) => call.toolName)).toEqual(["getRecipe", "suggest_ingredient_swaps"]);
      const swaps = (callsOf(turns)[1]!.input as { swaps: Array<{ ingredient: string }> }).swaps.map((swap) => swap.ingredient.toLowerCase());
      expect(swaps.some((ingredient) => /bacon/.test(ingredient))).toBe(true);
    });
  });

  describe("orders", () => {
    it("orders a recipe's ingredients for the servings asked", async () => {
      const { turns } = await play(conversation("order the ingredients for egg fried rice for 4", SAM_DESKTOP));
      expect(callsOf(turns)).toEqual([{ toolName: "order_ingredients", input: { recipeId: "r-204", servings: 4 } }]);
      expect(textOf(turns)).toMatch(/once you approve/);
    });

    it("orders for the recipe's own servings when none are said", async () => {
      const { turns } = await play(conversation("order egg fried rice", SAM_DESKTOP));
      expect(callsOf(turns)).toEqual([{ toolName: "order_ingredients", input: { recipeId: "r-204", servings: byId.get("r-204")!.servings } }]);
    });

    it("tells a guest to sign in instead of ordering", async () => {
      const { turns } = await play(conversation("order egg fried rice", GUEST_DESKTOP));
      expect(callsOf(turns)).toEqual([]);
      expect(textOf(turns)).toMatch(/sign in/i);
    });

    const ORDERED = { recipeId: "r-204", servings: 4 };
    it.each([
      [
        { status: "rejected", message: "The user rejected order_ingredients; it did not run.", comment: "too pricey" },
        /^I didn't order anything: the order was declined \("too pricey"\)\.$/,
      ],
      [
        { status: "cancelled", message: "The approval for order_ingredients was cancelled; it did not run." },
        /^The order was cancelled; nothing was ordered\.$/,
      ],
      [{ status: "succeeded", data: { orderId: "O-00007" } }, /^Ordered the ingredients for Egg fried rice \(4 servings\)\. Your order number is O-00007\.$/],
      [
        { status: "succeeded", data: { orderId: "O-00007", repeated: true } },
        /^Ordered the ingredients for Egg fried rice \(4 servings\)\. Your order number is O-00007\.$/,
      ],
      [{ status: "failed", reason: "out_of_stock", message: "Eggs are sold out." }, /^The order for Egg fried rice didn't go through: Eggs are sold out\.$/],
      [
        { status: "unknown", reason: "page_reloaded", message: "The page was reloaded." },
        /^I can't tell whether the order for Egg fried rice went through: The page was reloaded\.$/,
      ],
      [{ whatever: true }, /^I asked to order the ingredients for Egg fried rice, but I can't tell whether the order went through\.$/],
    ])("speaks the outcome %j honestly", (output, text) => {
      const asked = conversation("order the ingredients for egg fried rice for 4", SAM_DESKTOP);
      const turn = playbook.respond(after(asked, [result("order_ingredients", ORDERED, output)]));
      expect(turn.toolCalls).toBeUndefined();
      expect(turn.text).toMatch(text);
    });

    it("never says it ordered when the order did not succeed", () => {
      const asked = conversation("order the ingredients for egg fried rice for 4", SAM_DESKTOP);
      for (const output of [
        { status: "rejected", message: "x" },
        { status: "cancelled", message: "x" },
        { status: "failed" },
        { status: "blocked" },
        { status: "unknown" },
        { error: { code: "tool_failed", message: "x" } },
      ]) {
        const text = playbook.respond(after(asked, [result("order_ingredients", ORDERED, output, "error" in output)])).text ?? "";
        expect(text, JSON.stringify(output)).not.toMatch(/^Ordered|order number/);
      }
    });
  });

  it("stops after four tool turns in a row instead of going round in circles", () => {
    const asked = { ...conversation("Something quick with leftover rice?", SAM_DESKTOP), turnsSinceUser: 3 };
    const turn = playbook.respond(after(asked, [result("searchRecipes", {}, { query: "", total: 0, recipes: [] })]));
    expect(turn).toEqual({ text: expect.stringMatching(/stopped here/) });
  });

  it("names what it can do with the tools it was given", () => {
    const guest = playbook.respond(conversation("hello", GUEST_DESKTOP)).text!;
    const vera = playbook.respond(conversation("hello", VERA_DESKTOP)).text!;
    const mobile = playbook.respond(conversation("hello", SAM_MOBILE)).text!;
    expect(guest).toMatch(/Sign in to save recipes/);
    expect(guest).not.toMatch(/swaps|timer|cookbook \(/);
    expect(vera).toMatch(/suggest swaps/);
    expect(vera).toMatch(/save one to your cookbook/);
    expect(mobile).toMatch(/time a step/);
  });

  it("works with the allow-list's own default specs too", async () => {
    const defaults = [offerRecipes, suggestIngredientSwaps, saveToCookbook, startStepTimer, orderIngredients];
    const { turns } = await play(conversation("Something quick with leftover rice?", defaults));
    expect((callsOf(turns)[1]!.input as { recipes: unknown[] }).recipes).toHaveLength(3);
  });
});
