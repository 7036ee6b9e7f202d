/**
 * Type tests, checked by `tsc` in `npm test`: a server tool's renderer gets the arguments its
 * parameters describe (the schema's input, as the model writes them) and the result it names.
 */
import { expectTypeOf } from "vitest";
import { z } from "zod";
import { jsonSchema } from "../protocol/index.ts";
import { useToolRenderer } from "./use-tool-renderer.ts";

export function WeatherCards() {
  useToolRenderer(
    "get_weather",
    ({ partialArgs, args }) => {
      expectTypeOf(args).toEqualTypeOf<{ location: string; units?: "c" | "f" | undefined } | undefined>();
      expectTypeOf(partialArgs?.location).toEqualTypeOf<string | undefined>();
      return null;
    },
    { parameters: z.object({ location: z.string(), units: z.enum(["c", "f"]).default("c").optional() }) },
  );
  useToolRenderer(
    "get_weather",
    ({ args }) => {
      expectTypeOf(args).toEqualTypeOf<{ location: string } | undefined>();
      return null;
    },
    { parameters: jsonSchema<{ location: string }>({ type: "object" }) },
  );
  useToolRenderer<{ location: string }, { temperature: number }>("get_weather", ({ result }) => {
    expectTypeOf(result).toEqualTypeOf<{ temperature: number } | undefined>();
    return null;
  });
  useToolRenderer("lookup", ({ args }) => {
    expectTypeOf(args).toEqualTypeOf<Record<string, unknown> | undefined>();
    return null;
  });
  // @ts-expect-error -- the parameters' type and the render's disagree
  useToolRenderer<{ location: number }>("get_weather", () => null, { parameters: z.object({ location: z.string() }) });
  return null;
}
