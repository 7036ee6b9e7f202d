import { useContext, useEffect, useRef } from "react";
import type { TypedJsonSchema } from "../protocol/index.ts";
import type { ServerToolRenderer } from "./server-tool-call.ts";
import { ToolRenderersContext } from "./tool-renderers.ts";

export type { ServerToolCallStatus, ServerToolCallView, ServerToolRenderer } from "./server-tool-call.ts";

export interface ToolRendererOptions<Args = Record<string, unknown>> {
  /**
   * The tool's parameters (a zod schema, any Standard Schema, or a JSON Schema typed with
   * `jsonSchema<Args>()`): they type the arguments `render` gets, as the model writes them (the
   * schema's input), and nothing else. The arguments are never checked against them, nor sent.
   */
  parameters?: { readonly "~standard": { readonly types?: { readonly input: Args } | undefined } } | TypedJsonSchema<Args>;
}

/**
 * Draws the calls of a tool that runs on the server (or an upstream or ADK
 * agent's own tool) in the conversation, in place of their line: while the
 * arguments stream, while it runs, and with its result (JSON text parsed) or
 * why it failed. For as long as the component is mounted; the latest `render`
 * always draws. A UI concern only: it never offers, allows or runs a tool.
 * A `render` that throws leaves the call's line in its place, and the error
 * is reported to the run's record (`renderer-error`). Browser tools draw their
 * calls with `useBrowserTool`'s `render`. Needs a `TetherProvider` above.
 *
 * @example
 * useToolRenderer<{ location: string }, Weather>("get_weather", ({ status, partialArgs, result }) =>
 *   status === "done" ? <WeatherCard weather={result} /> : <p>Looking up {partialArgs?.location ?? "the weather"}…</p>,
 * );
 */
export function useToolRenderer<Args = Record<string, unknown>, Result = unknown>(
  name: string,
  render: ServerToolRenderer<Args, Result>,
  _options?: ToolRendererOptions<Args>,
): void {
  const latest = useRef(render);
  latest.current = render;
  const renderers = useContext(ToolRenderersContext);
  // A programmer error (the component is placed outside its provider), not a user's: a plain Error, thrown while rendering.
  if (!renderers) throw new Error(`useToolRenderer("${name}") needs a <TetherProvider session={…}> above this component.`);
  useEffect(() => renderers.registerServer(name, (call) => latest.current(call)), [renderers, name]);
}
