import type { AgentSession } from "@tether-agent/tether/client";
import type { BrowserToolSpec, ToolOutcome } from "@tether-agent/tether/protocol";
import { useBrowserTool } from "@tether-agent/tether/react";
import type { SaveToCookbookArgs } from "../../../agent/browser-tools.ts";
import { RECIPES_API, sendJson, type CookbookEntry } from "../api.ts";
import type { RecipeBook } from "../recipe-book.ts";
import { RecipeTitle } from "../recipe-title.tsx";
import { failureOutcome } from "./failure-outcome.ts";
import { ToolChip } from "./tool-chip.tsx";

/**
 * save_to_cookbook: saves through the Recipes API, and says it is saved only
 * when the API answered 200. A guest's API refuses (forbidden), whatever the
 * agent was handed; that refusal is the outcome.
 */
export function SaveToCookbookTool({ session, spec, book }: { session: AgentSession; spec: BrowserToolSpec<SaveToCookbookArgs>; book: RecipeBook }) {
  useBrowserTool(session, {
    spec,
    // Saving twice saves once (the API says alreadySaved): a call a reload cut short may run again.
    onReload: "run-again",
    execute: async ({ recipeId }): Promise<ToolOutcome> => {
      try {
        const { entry, alreadySaved } = await sendJson<{ entry: CookbookEntry; alreadySaved: boolean }>("POST", `${RECIPES_API}/cookbook`, { recipeId });
        return {
          status: "succeeded",
          message: alreadySaved ? `${entry.title} was already in the cookbook.` : `Saved ${entry.title} to the cookbook.`,
          data: { recipeId, alreadySaved },
        };
      } catch (error) {
        return failureOutcome(error, `The cookbook did not answer; ${recipeId} may or may not be saved.`);
      }
    },
    render: ({ args, status, message }) => {
      const title = args ? <RecipeTitle book={book} recipeId={args.recipeId} /> : "the recipe";
      return (
        <ToolChip status={status} icon="📖" doing={<>Saving {title}…</>} done={message ?? <>Saved {title}</>} notDone={<>Not saved: {message ?? title}</>} />
      );
    },
  });
  return null;
}
