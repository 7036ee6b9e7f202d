import type { z } from "zod";

/**
 * The shared state as the offline model reads it: Tether puts the state in
 * the system prompt as one JSON line, so the playbook takes the last line
 * that parses and matches the feature's schema, as a model reads it there.
 */
export function stateFromPrompt<Schema extends z.ZodType>(system: string, schema: Schema): z.infer<Schema> | undefined {
  for (const line of system.split("\n").reverse()) {
    if (!line.trim().startsWith("{")) continue;
    try {
      const parsed = schema.safeParse(JSON.parse(line));
      if (parsed.success) return parsed.data;
    } catch {
      // Not the state's line: a line of the instructions or the context that starts with a brace.
    }
  }
  return undefined;
}
