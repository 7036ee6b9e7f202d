import type { Tool } from "@ag-ui/core";

/** A JSON Schema object, as AG-UI tools carry it. */
export type JsonSchema = Record<string, unknown>;

/**
 * `follow-up`: the agent needs the outcome (navigation), so the browser starts
 * a continuation run carrying the tool message. `render-only`: the effect is
 * on screen (recipe cards), and the tool message is bookkeeping for the next run.
 */
export type BrowserToolKind = "follow-up" | "render-only";

/** A tool the browser executes, as the server allow-lists it. */
export interface BrowserToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
  kind: BrowserToolKind;
  /** Every frontend of this agent must execute it; a client without an executor is drift. */
  required?: boolean;
  /** A person approves each call before the browser may perform it (the server asks; see interrupts). */
  needsApproval?: boolean;
}

/** Declares a browser tool; `kind` defaults to `follow-up`, the honest choice. */
export function defineBrowserTool(spec: Omit<BrowserToolSpec, "kind"> & { kind?: BrowserToolKind }): BrowserToolSpec {
  return { ...spec, kind: spec.kind ?? "follow-up" };
}

/** The AG-UI `Tool` a frontend sends in `RunAgentInput.tools`. */
export function toAgUiTool(spec: BrowserToolSpec, description = spec.description): Tool {
  return { name: spec.name, description, parameters: spec.parameters };
}
