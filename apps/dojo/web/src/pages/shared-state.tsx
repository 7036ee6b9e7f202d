import { useAgentState, useSessionStatus, useTetherSession } from "@tether-agent/tether/react";
import { SplitLayout, type PageProps } from "../parts/layouts.tsx";
import { readRecipe, type Recipe } from "../parts/read-recipe.ts";
import { RecipeEditor } from "../parts/recipe-editor.tsx";

/**
 * shared_state: the recipe in the agent's state, edited here and by the
 * agent. The person's edits reach it with the next run; its changes stream
 * in as it writes (predicted from its tool's argument). While it writes, the
 * recipe is read-only: an edit of a half-written recipe would be the
 * person's, and win over the rest of what the agent writes.
 */
export function SharedStatePage({ panel }: PageProps) {
  const session = useTetherSession();
  const status = useSessionStatus();
  const [state, setState] = useAgentState<{ recipe?: unknown }>();
  const recipe = readRecipe(state.recipe);
  const writing = status === "running" || status === "observing";
  const change = (fields: Partial<Recipe>) => setState((current) => ({ ...current, recipe: { ...readRecipe(current.recipe), ...fields } }));
  const stage = (
    <>
      <div className="stage__bar">
        <p role="status" className="stage__status">
          {writing ? "The agent is working on the recipe…" : "Edit anything: the agent sees your changes with your next message."}
        </p>
        <button type="button" className="primary" disabled={writing} onClick={() => void session.send("Improve the recipe").catch(() => {})}>
          Improve with the agent
        </button>
      </div>
      <RecipeEditor recipe={recipe} disabled={writing} onChange={change} />
    </>
  );
  return <SplitLayout label="Shared recipe" stage={stage} panel={panel} />;
}
