import type { Context } from "hono";
import type { z } from "zod";
import { TetherError, formatIssues } from "../../protocol/index.ts";
import { checkDepth } from "./check-depth.ts";
import { readNodeText, unreadNodeRequest } from "./node-request.ts";

/**
 * Reads a request body as JSON and checks it against a schema: `invalid_json`
 * when it does not parse, `invalid_input` (too deep, or not the shape `what`
 * must have) with the first problems named. One reader for every route that
 * takes a body.
 */
export async function readJsonBody<Schema extends z.ZodType>(c: Context, schema: Schema, what: string): Promise<z.infer<Schema>> {
  const incoming = unreadNodeRequest(c);
  let body: unknown;
  try {
    // A body cut off on its way (the client gone mid-upload) is no JSON either: a 400, not a server error.
    body = JSON.parse(incoming ? await readNodeText(incoming) : await c.req.text());
  } catch {
    throw new TetherError("invalid_json", `${what} is not valid JSON.`);
  }
  checkDepth(body, what);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new TetherError("invalid_input", `${what} is not valid: ${formatIssues(parsed.error.issues, "(body)")}.`, {
      details: { issues: parsed.error.issues.slice(0, 20) },
    });
  }
  return parsed.data;
}
