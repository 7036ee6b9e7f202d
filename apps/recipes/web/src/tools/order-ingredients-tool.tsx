import type { AgentSession } from "@tether-agent/tether/client";
import type { BrowserToolSpec, ToolOutcome } from "@tether-agent/tether/protocol";
import { useBrowserTool } from "@tether-agent/tether/react";
import type { OrderIngredientsArgs } from "../../../agent/browser-tools.ts";
import { RECIPES_API, sendJson, type GroceryOrder } from "../api.ts";
import type { RecipeBook } from "../recipe-book.ts";
import { RecipeTitle } from "../recipe-title.tsx";
import { failureOutcome } from "./failure-outcome.ts";
import { ToolChip } from "./tool-chip.tsx";

/**
 * order_ingredients: runs only once the person approved it (the server asks
 * first, in the words of the agent's allow-list: "Order the ingredients for
 * Egg fried rice (4 servings)?"). The order's request id is the tool call's id, so a retry or a
 * reload that runs it again finds the first order instead of placing another.
 */
export function OrderIngredientsTool({ session, spec, book }: { session: AgentSession; spec: BrowserToolSpec<OrderIngredientsArgs>; book: RecipeBook }) {
  useBrowserTool(session, {
    spec,
    onReload: "run-again",
    execute: async ({ recipeId, servings }, { toolCallId }): Promise<ToolOutcome> => {
      try {
        const { order, repeated } = await sendJson<{ order: GroceryOrder; repeated: boolean }>("POST", `${RECIPES_API}/orders`, {
          recipeId,
          servings,
          requestId: toolCallId,
        });
        const what = `${order.items.length} items for ${order.title}, ${order.servings} servings`;
        return {
          status: "succeeded",
          message: repeated ? `Order ${order.orderId} was already placed (${what}).` : `Order ${order.orderId} placed: ${what}.`,
          data: { orderId: order.orderId, repeated, items: order.items.length },
        };
      } catch (error) {
        return failureOutcome(
          error,
          `The shop did not answer; the order for ${recipeId} may or may not be placed. Check the cookbook page before ordering again.`,
        );
      }
    },
    render: ({ args, status, message }) => {
      const what = args ? (
        <>
          <RecipeTitle book={book} recipeId={args.recipeId} /> ({args.servings} servings)
        </>
      ) : (
        "the ingredients"
      );
      return (
        <ToolChip
          status={status}
          icon="🛒"
          doing={status === "awaiting" ? <>Waiting for your approval: {what}</> : <>Ordering {what}…</>}
          done={message ?? <>Ordered {what}</>}
          notDone={<>Not ordered: {message ?? what}</>}
        />
      );
    },
  });
  return null;
}
