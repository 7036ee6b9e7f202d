import { z } from "zod";
import { TetherError, formatIssues } from "../../../protocol/index.ts";
import { isPlainObject } from "../is-plain-object.ts";
import { MAX_ID_LENGTH } from "../render-a2ui-args.ts";

/** How deep an action's `context` may nest (the context object itself is level 1). */
export const MAX_ACTION_CONTEXT_DEPTH = 8;
/** How long an action's `context` may be, as JSON. */
export const MAX_ACTION_CONTEXT_CHARS = 16_384;

/**
 * A click on a surface, as `@ag-ui/a2ui-middleware` and CopilotKit send it in
 * `forwardedProps.a2uiAction.userAction`. Tether asks for every field the
 * middleware leaves optional: the surface and component say what was clicked,
 * the timestamp tells a second click from the same click delivered twice.
 */
export const UserActionSchema = z
  .object({
    name: z.string().min(1).max(MAX_ID_LENGTH),
    surfaceId: z.string().min(1).max(MAX_ID_LENGTH),
    sourceComponentId: z.string().min(1).max(MAX_ID_LENGTH),
    context: z
      .record(z.string(), z.unknown())
      .default({})
      .superRefine((context, check) => {
        const problem = contextProblem(context);
        if (problem) check.addIssue({ code: "custom", message: problem });
      }),
    timestamp: z.string().min(1).max(64),
  })
  .strict();

export type UserAction = z.infer<typeof UserActionSchema>;

/**
 * The action a run request carries, or undefined when it carries none.
 * Refuses (400 `ui_action_invalid`) an `a2uiAction` that is not a well-formed action.
 */
export function readUserAction(forwardedProps: unknown): UserAction | undefined {
  if (!isPlainObject(forwardedProps) || forwardedProps.a2uiAction === undefined) return undefined;
  const { a2uiAction } = forwardedProps;
  if (!isPlainObject(a2uiAction) || a2uiAction.userAction === undefined) {
    throw new TetherError(
      "ui_action_invalid",
      "forwardedProps.a2uiAction must be an object with a userAction { name, surfaceId, sourceComponentId, context, timestamp }.",
    );
  }
  const parsed = UserActionSchema.safeParse(a2uiAction.userAction);
  if (!parsed.success) {
    throw new TetherError(
      "ui_action_invalid",
      `forwardedProps.a2uiAction.userAction is not a valid action: ${formatIssues(parsed.error.issues, "(userAction)")}.`,
    );
  }
  return parsed.data;
}

function contextProblem(context: Record<string, unknown>): string | undefined {
  const stack: Array<[unknown, number]> = [[context, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth > MAX_ACTION_CONTEXT_DEPTH) return `the context nests more than ${MAX_ACTION_CONTEXT_DEPTH} levels deep`;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  const length = JSON.stringify(context).length;
  if (length > MAX_ACTION_CONTEXT_CHARS) return `the context is ${length} characters as JSON; at most ${MAX_ACTION_CONTEXT_CHARS}`;
  return undefined;
}
