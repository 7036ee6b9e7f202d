import { CreateSurfaceMessageSchema, UpdateComponentsMessageSchema, UpdateDataModelMessageSchema, type A2uiMessage } from "@a2ui/web_core/v0_9";
import type { RenderA2uiArgs } from "./render-a2ui-args.ts";
import type { SurfaceError } from "./surface-error.ts";

/** One A2UI v0.9 server-to-client message, as `@a2ui/web_core` types it. */
export type A2uiOperation = A2uiMessage;

/**
 * The messages a `render_a2ui` call stands for, in the middleware's order:
 * create the surface, set its components, then set its data when there is any.
 */
export function buildOperations(args: RenderA2uiArgs, catalogId: string): A2uiOperation[] {
  const { surfaceId } = args;
  const operations: A2uiOperation[] = [
    { version: "v0.9", createSurface: { surfaceId, catalogId } },
    { version: "v0.9", updateComponents: { surfaceId, components: args.components as A2uiMessageComponents } },
  ];
  if (args.data !== undefined) operations.push({ version: "v0.9", updateDataModel: { surfaceId, path: "/", value: args.data } });
  return operations;
}

type A2uiMessageComponents = Extract<A2uiMessage, { updateComponents: unknown }>["updateComponents"]["components"];

/**
 * Checks each message against `@a2ui/web_core`'s own v0.9 schema, the one
 * the renderer's message processor trusts, and reports zod's issues with a
 * path into the operation list.
 */
export function checkOperationSchemas(operations: A2uiOperation[]): SurfaceError[] {
  const errors: SurfaceError[] = [];
  operations.forEach((operation, index) => {
    // The schema for the operation's own kind, not the union: a union failure
    // says only "Invalid input", which gives the model nothing to fix.
    const schema =
      "createSurface" in operation
        ? CreateSurfaceMessageSchema
        : "updateComponents" in operation
          ? UpdateComponentsMessageSchema
          : UpdateDataModelMessageSchema;
    const result = schema.safeParse(operation);
    if (result.success) return;
    for (const issue of result.error.issues) {
      errors.push({ code: "schema", path: `operations[${index}]${formatIssuePath(issue.path)}`, message: issue.message });
    }
  });
  return errors;
}

/** Renders a zod issue path (`["updateComponents","components",2,"weight"]`) the way the other errors spell paths. */
export function formatIssuePath(path: ReadonlyArray<string | number>): string {
  return path.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`)).join("");
}
