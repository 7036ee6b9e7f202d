import type { AgentSession } from "@tether-agent/tether/client";
import type { BrowserToolSpec, ToolOutcome } from "@tether-agent/tether/protocol";
import { useBrowserTool } from "@tether-agent/tether/react";
import type { OfferRecipesArgs } from "../../../agent/browser-tools.ts";
import type { RecipeBook } from "../recipe-book.ts";
import { RecipeCards } from "./recipe-cards.tsx";

/**
 * offer_recipes: the suggestions as clickable cards in the conversation.
 * Render-only: its outcome is bookkeeping for the next run, and says how many
 * cards really show (a made-up id gets no card).
 */
export function OfferRecipesTool(props: {
  session: AgentSession;
  spec: BrowserToolSpec<OfferRecipesArgs>;
  book: RecipeBook;
  openRecipe(recipeId: string): void;
}) {
  const { session, spec, book } = props;
  useBrowserTool(session, {
    spec,
    // A reload draws the cards again from the conversation; showing them twice harms nothing.
    onReload: "run-again",
    execute: async ({ recipes }): Promise<ToolOutcome> => {
      const loaded = await Promise.allSettled(recipes.map((offer) => book.load(offer.id)));
      const shown = recipes.filter((_, index) => loaded[index]!.status === "fulfilled");
      const missing = recipes.filter((_, index) => loaded[index]!.status === "rejected").map((offer) => offer.id);
      const data = { recipeIds: shown.map((offer) => offer.id), ...(missing.length ? { missing } : {}) };
      if (shown.length === 0)
        return { status: "failed", reason: "not_found", message: `No card could be shown: ${missing.join(", ")} could not be loaded.`, data };
      const cards = `rendered ${shown.length} recipe card${shown.length === 1 ? "" : "s"} (${shown.map((offer) => offer.title).join(", ")})`;
      return { status: "succeeded", message: missing.length ? `${cards}; ${missing.join(", ")} could not be loaded.` : `${cards}.`, data };
    },
    render: ({ args }) => <RecipeCards args={args} book={book} openRecipe={props.openRecipe} />,
  });
  return null;
}
