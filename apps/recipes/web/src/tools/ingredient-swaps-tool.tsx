import type { AgentSession } from "@tether-agent/tether/client";
import type { BrowserToolSpec } from "@tether-agent/tether/protocol";
import { useBrowserTool } from "@tether-agent/tether/react";
import type { SuggestIngredientSwapsArgs } from "../../../agent/browser-tools.ts";

/** suggest_ingredient_swaps: one chip per swap in the conversation ("eggs → silken tofu · no eggs? tofu works too"). Render-only. */
export function IngredientSwapsTool({ session, spec }: { session: AgentSession; spec: BrowserToolSpec<SuggestIngredientSwapsArgs> }) {
  useBrowserTool(session, {
    spec,
    onReload: "run-again",
    execute: ({ swaps }) => ({
      status: "succeeded",
      message: `showed ${swaps.length} swap chip${swaps.length === 1 ? "" : "s"}.`,
      data: { count: swaps.length },
    }),
    render: ({ args }) =>
      args?.swaps?.length ? (
        <ul className="swaps" aria-label="Ingredient swaps">
          {args.swaps.map((swap) => (
            <li key={`${swap.ingredient}:${swap.swap}`} className="swap">
              <span className="swap__from">{swap.ingredient}</span>
              <span aria-label="becomes"> → </span>
              <strong className="swap__to">{swap.swap}</strong>
              {swap.note ? <span className="swap__note"> · {swap.note}</span> : null}
            </li>
          ))}
        </ul>
      ) : null,
  });
  return null;
}
