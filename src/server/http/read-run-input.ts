import type { RunAgentInput } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import type { Context } from "hono";
import { TetherError } from "../../protocol/index.ts";
import { isJsonContentType } from "./middleware/require-json.ts";
import { readJsonBody } from "./read-json-body.ts";

/** Reads and checks a run request body: JSON, shaped as AG-UI's `RunAgentInput`. */
export async function readRunInput(c: Context): Promise<RunAgentInput> {
  const type = c.req.header("content-type") ?? "";
  if (!isJsonContentType(type)) {
    throw new TetherError("unsupported_media_type", `Send the RunAgentInput as application/json (got ${type ? `"${type}"` : "no Content-Type"}).`);
  }
  return (await readJsonBody(c, RunAgentInputSchema, "The body (a RunAgentInput)")) as RunAgentInput;
}
