/**
 * Type tests, checked by `tsc` in `npm test`: a handler's arguments come from
 * its tool's schema, and a wrong one does not compile.
 */
import { expectTypeOf } from "vitest";
import { z } from "zod";
import { defineTool, type ToolContext } from "../server/index.ts";
import type { BrowserToolHandler } from "../client/index.ts";
import { defineBrowserTool, jsonSchema, type BrowserToolArguments } from "./index.ts";

const _showCards = defineBrowserTool({
  name: "showCards",
  description: "Shows recipe cards.",
  parameters: z.object({ ids: z.array(z.string()), reason: z.string().optional() }),
});
expectTypeOf<BrowserToolArguments<typeof _showCards>>().toEqualTypeOf<{ ids: string[]; reason?: string | undefined }>();

const startTimer = defineBrowserTool({
  name: "startTimer",
  description: "Starts a countdown.",
  parameters: jsonSchema<{ seconds: number; label?: string }>({
    type: "object",
    properties: { seconds: { type: "integer" }, label: { type: "string" } },
    required: ["seconds"],
  }),
});
expectTypeOf<BrowserToolArguments<typeof startTimer>>().toEqualTypeOf<{ seconds: number; label?: string }>();

const _untyped = defineBrowserTool({ name: "anything", description: "Anything.", parameters: { type: "object" } });
expectTypeOf<BrowserToolArguments<typeof _untyped>>().toEqualTypeOf<Record<string, unknown>>();

// A browser handler gets the typed arguments…
const handler: BrowserToolHandler<BrowserToolArguments<typeof startTimer>> = {
  spec: startTimer,
  execute: (args) => {
    expectTypeOf(args.seconds).toEqualTypeOf<number>();
    // @ts-expect-error: no such argument
    void args.minutes;
    return { status: "succeeded" };
  },
};
void handler;

// …and so does a server tool, from zod or a typed JSON Schema.
defineTool({
  name: "searchRecipes",
  description: "Finds recipes.",
  parameters: z.object({ query: z.string(), maxMinutes: z.number().optional() }),
  execute: (args, context) => {
    expectTypeOf(args).toEqualTypeOf<{ query: string; maxMinutes?: number | undefined }>();
    expectTypeOf(context).toMatchTypeOf<ToolContext>();
    // @ts-expect-error: query is a string
    const wrong: number = args.query;
    return wrong;
  },
});
defineTool({
  name: "getRecipe",
  description: "One recipe.",
  parameters: jsonSchema<{ id: string }>({ type: "object", properties: { id: { type: "string" } }, required: ["id"] }),
  execute: ({ id }) => {
    expectTypeOf(id).toEqualTypeOf<string>();
    return id;
  },
});

// Any Standard Schema that describes itself as JSON Schema works like zod: its output type is the handler's.
declare const countSchema: import("./index.ts").StandardJsonSchema<{ count: number }>;
defineTool({
  name: "countItems",
  description: "Counts.",
  parameters: countSchema,
  execute: ({ count }) => {
    expectTypeOf(count).toEqualTypeOf<number>();
    return count;
  },
});

// The browser never runs the schema library: a browser tool's handler gets the input type, defaults not applied.
const _paged = defineBrowserTool({ name: "paged", description: "Pages.", parameters: z.object({ page: z.number().default(1) }) });
expectTypeOf<BrowserToolArguments<typeof _paged>>().toEqualTypeOf<{ page?: number | undefined }>();
