import type { InputArgumentsOf, ToolParameters } from "../../protocol/index.ts";
import type { AgentStateOption } from "./agent-state.ts";
import type { RunState } from "./run-state.ts";

/** An agent's state, written once as its schema: give it to `defineAgent({ state })`, and read it typed in tools. */
export interface StateDefinition<S extends object> extends AgentStateOption<S> {
  /** The run's state holder, typed by the schema: `recipe.in(context).set({ ... })`. */
  in(context: { state: RunState<any> }): RunState<S>;
}

/**
 * Declares an agent's shared state with its type flowing from the schema.
 * The type is the schema's input type: the state is checked against its JSON
 * Schema only, so a default or transform of the schema library never applies.
 *
 * @example
 * const recipeState = defineState(z.object({ recipe: z.object({ title: z.string() }) }), { initial: { recipe: { title: "" } } });
 * defineAgent({ id: "recipes", model, state: recipeState, tools: [
 *   defineTool({ name: "set_title", description: "Renames the recipe.", parameters: z.object({ title: z.string() }),
 *     execute: ({ title }, context) => recipeState.in(context).set({ recipe: { title } }) }),
 * ] });
 */
export function defineState<P extends ToolParameters>(
  schema: P,
  options: Omit<AgentStateOption<InputArgumentsOf<P> & object>, "schema"> = {},
): StateDefinition<InputArgumentsOf<P> & object> {
  return { schema, ...options, in: (context) => context.state };
}
