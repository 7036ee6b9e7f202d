import type { Tool } from "@ag-ui/core";
import { toJsonSchema, type InputArgumentsOf, type ToolParameters, type TypedJsonSchema } from "./tool-arguments.ts";

/**
 * `follow-up`: the agent needs the outcome (navigation), so the browser starts
 * a continuation run carrying the tool message. `render-only`: the effect is
 * on screen (recipe cards), and the tool message is bookkeeping for the next run.
 */
export type BrowserToolKind = "follow-up" | "render-only";

/** A tool the browser executes, as the server allow-lists it; `Args` is what its handler gets. */
export interface BrowserToolSpec<Args = any> {
  name: string;
  description: string;
  /** JSON Schema of the arguments (what the model and the server's allow-list see), typed with `Args`. */
  parameters: TypedJsonSchema<Args>;
  kind: BrowserToolKind;
  /** Every frontend of this agent must execute it; a client without an executor is drift. */
  required?: boolean;
  /**
   * A person approves each call before the browser may perform it (the server asks; see interrupts):
   * every call, or those whose arguments the predicate picks (it runs on the server, with arguments already checked).
   */
  needsApproval?: boolean | ((args: Args) => boolean);
  /** The question the person is asked, in words (the server asks it; it never travels to the model). Default: the tool's name and arguments. */
  approvalMessage?: (args: Args) => string;
}

/**
 * Declares a browser tool, its arguments written once: as a zod schema or a
 * JSON Schema (typed with `jsonSchema<Args>()`, or plain); handlers get the
 * arguments' type from it. `kind` defaults to `follow-up`, the honest choice.
 *
 * @example
 * const showCards = defineBrowserTool({ name: "showCards", description: "…", parameters: z.object({ ids: z.array(z.string()) }) });
 */
export function defineBrowserTool<Parameters extends ToolParameters>(
  spec: Omit<BrowserToolSpec, "kind" | "parameters"> & { parameters: Parameters; kind?: BrowserToolKind },
): BrowserToolSpec<InputArgumentsOf<Parameters>> {
  return { ...spec, parameters: toJsonSchema(spec.parameters), kind: spec.kind ?? "follow-up" };
}

/** The arguments a browser tool's handler gets. */
export type BrowserToolArguments<Spec> = Spec extends BrowserToolSpec<infer Args> ? Args : never;

/** The AG-UI `Tool` a frontend sends in `RunAgentInput.tools`. */
export function toAgUiTool(spec: BrowserToolSpec, description = spec.description): Tool {
  return { name: spec.name, description, parameters: spec.parameters };
}
