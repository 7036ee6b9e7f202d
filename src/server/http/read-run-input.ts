import type { RunAgentInput } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import type { Context } from "hono";
import { TetherError } from "../../protocol/index.ts";
import { checkDepth } from "./check-depth.ts";
import { isJsonContentType } from "./middleware/require-json.ts";

/** Reads and checks a run request body: JSON, shaped as AG-UI's `RunAgentInput`. */
export async function readRunInput(c: Context): Promise<RunAgentInput> {
  const type = c.req.header("content-type") ?? "";
  if (!isJsonContentType(type)) {
    throw new TetherError("unsupported_media_type", `Send the RunAgentInput as application/json (got ${type ? `"${type}"` : "no Content-Type"}).`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new TetherError("invalid_json", "The request body is not valid JSON.");
  }
  checkDepth(body, "The request body");
  const parsed = RunAgentInputSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`);
    throw new TetherError("invalid_input", `The body is not a valid RunAgentInput: ${issues.join("; ")}.`, {
      details: { issues: parsed.error.issues.slice(0, 20) },
    });
  }
  return parsed.data as RunAgentInput;
}
