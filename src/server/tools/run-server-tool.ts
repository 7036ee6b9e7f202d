import { TetherError, isTetherError } from "../../protocol/index.ts";
import type { ServerTool, ToolContext } from "./define-tool.ts";

/**
 * Runs a server tool on checked arguments and returns the content of its
 * result: its output as text, or `{ "error": { code, message } }` when it is
 * refused or fails, which the model sees as an error.
 */
export async function runServerTool(tool: ServerTool, checked: unknown, context: ToolContext): Promise<string> {
  try {
    const args = tool.parse ? tool.parse(checked) : checked;
    tool.authorize?.(args, context.user);
    const output = await tool.execute(args, context);
    return typeof output === "string" ? output : JSON.stringify(output ?? null);
  } catch (error) {
    return errorContent(isTetherError(error) ? error : new TetherError("tool_failed", `${tool.name} failed: ${(error as Error)?.message ?? String(error)}`));
  }
}

/** The content of an error result: `{ "error": { "code", "message" } }`, the shape the prompt marks as an error. */
export function errorContent(error: TetherError): string {
  return JSON.stringify({ error: { code: error.code, message: error.message } });
}
