import { TetherError } from "../../../protocol/index.ts";
import { defineTool, type ServerTool } from "../../tools/index.ts";
import { RENDER_A2UI } from "./surface-lifecycle.ts";

/**
 * The render tool an agent with generated UI offers the model, under the
 * middleware's name and with its arguments. Its calls are settled by the run
 * loop (`SurfaceLifecycle.settle`), which validates them, publishes the
 * surface and counts the attempts; `execute` is never the path a call takes.
 */
export function renderA2uiTool(): ServerTool {
  return defineTool({
    name: RENDER_A2UI,
    description:
      'Show the person a piece of UI (an A2UI v0.9 surface) in the conversation: a flat list of components, one with id "root", children referenced by id, ' +
      'values bound to `data` with {"path":"/…"}. Buttons carry an action {"event":{"name":"…","context":{…}}}; a click comes back to you as the next turn. ' +
      "If the result says A2UI validation failed, fix each listed error and call this tool again.",
    parameters: {
      type: "object",
      properties: {
        surfaceId: { type: "string", minLength: 1, maxLength: 128, description: "A stable id for this surface, such as request-R-1042." },
        components: { type: "array", minItems: 1, maxItems: 500, items: { type: "object" }, description: "The A2UI v0.9 components, flat, with ids." },
        data: { type: "object", description: "The data model the components bind to." },
        catalogId: { type: "string", description: "The catalog the components come from; the client's first catalog when left out." },
      },
      required: ["surfaceId", "components"],
    },
    execute: () => {
      throw new TetherError("tool_failed", `${RENDER_A2UI} is settled by the run loop of an agent with generated UI; this agent has none.`);
    },
  });
}
