import type { AgentSession } from "@tether-agent/tether/client";
import type { BrowserToolSpec } from "@tether-agent/tether/protocol";
import type { KitchenTimers } from "../kitchen-timers.ts";
import type { RecipeBook } from "../recipe-book.ts";
import { IngredientSwapsTool } from "./ingredient-swaps-tool.tsx";
import { OfferRecipesTool } from "./offer-recipes-tool.tsx";
import { OrderIngredientsTool } from "./order-ingredients-tool.tsx";
import { SaveToCookbookTool } from "./save-to-cookbook-tool.tsx";
import { StepTimerTool } from "./step-timer-tool.tsx";

/**
 * Hands the session the tools this frontend chose (`recipeToolsFor`), each
 * with the code that performs it: a tool not in `specs` is not registered,
 * so the agent never hears of it. Each spec keeps its own wording (one card on
 * a phone, up to three on a desktop).
 */
export function RecipeTools(props: {
  session: AgentSession;
  specs: BrowserToolSpec[];
  book: RecipeBook;
  timers: KitchenTimers;
  openRecipe(recipeId: string): void;
}) {
  const { session, book, timers } = props;
  return (
    <>
      {props.specs.map((spec) => {
        switch (spec.name) {
          case "offer_recipes":
            return <OfferRecipesTool key={spec.name} session={session} spec={spec} book={book} openRecipe={props.openRecipe} />;
          case "suggest_ingredient_swaps":
            return <IngredientSwapsTool key={spec.name} session={session} spec={spec} />;
          case "save_to_cookbook":
            return <SaveToCookbookTool key={spec.name} session={session} spec={spec} book={book} />;
          case "start_step_timer":
            return <StepTimerTool key={spec.name} session={session} spec={spec} timers={timers} />;
          case "order_ingredients":
            return <OrderIngredientsTool key={spec.name} session={session} spec={spec} book={book} />;
          default:
            // A tool the tool sets name but this page cannot perform: better refused in development than declared and never run.
            throw new Error(`The Recipes page has no executor for the browser tool "${spec.name}".`);
        }
      })}
    </>
  );
}
