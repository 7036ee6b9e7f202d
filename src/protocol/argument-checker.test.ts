import { describe, expect, it } from "vitest";
import { createArgumentChecker } from "./argument-checker.ts";
import { isTetherError } from "./errors.ts";

const checker = createArgumentChecker();
const checkArguments = checker.check;
const compileSchema = checker.compile;

const openScreenSchema = {
  type: "object",
  properties: {
    screen: {
      type: "object",
      properties: { id: { type: "string" }, mode: { type: "string", enum: ["replace", "modal"] } },
      required: ["id"],
    },
  },
  required: ["screen"],
  additionalProperties: false,
};

const noArgumentsSchema = { type: "object", properties: {}, additionalProperties: false };

describe("ArgumentChecker.check", () => {
  it("treats an empty argument stream as an empty object", () => {
    expect(checkArguments("listScreens", noArgumentsSchema, "")).toEqual({ ok: true, value: {} });
    expect(checkArguments("listScreens", noArgumentsSchema, "  \n")).toEqual({ ok: true, value: {} });
  });

  it("refuses malformed JSON with invalid_arguments naming the tool", () => {
    const check = checkArguments("openScreen", openScreenSchema, '{"screen":{"id":"MNU-31');

    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error.code).toBe("invalid_arguments");
    expect(check.error.message).toBe("The arguments for openScreen are not valid JSON.");
  });

  it("names the path of a value that breaks the schema", () => {
    const check = checkArguments("openScreen", openScreenSchema, '{"screen":{"id":3120}}');

    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error.code).toBe("invalid_arguments");
    expect(check.error.message).toBe("The arguments for openScreen do not match its schema: /screen/id must be string.");
  });

  it("lists every problem, not only the first", () => {
    const check = checkArguments("openScreen", openScreenSchema, '{"screen":{"mode":"popup"},"extra":1}');

    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error.message).toContain("(arguments) must NOT have additional properties");
    expect(check.error.message).toContain("/screen must have required property 'id'");
    expect(check.error.message).toContain("/screen/mode must be equal to one of the allowed values");
    expect(Array.isArray(check.error.details)).toBe(true);
  });

  it("refuses arguments that are JSON but not an object", () => {
    const check = checkArguments("openScreen", openScreenSchema, "null");

    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.error.message).toBe("The arguments for openScreen do not match its schema: (arguments) must be object.");
  });

  it("returns the parsed value for valid arguments", () => {
    expect(checkArguments("openScreen", openScreenSchema, '{"screen":{"id":"MNU-3120","mode":"replace"}}')).toEqual({
      ok: true,
      value: { screen: { id: "MNU-3120", mode: "replace" } },
    });
  });
});

describe("ArgumentChecker.compile", () => {
  it("throws config_invalid naming the owner for a schema that is not valid JSON Schema", () => {
    let thrown: unknown;
    try {
      compileSchema({ type: "nonsense" }, 'tool "openScreen"');
    } catch (error) {
      thrown = error;
    }

    expect(isTetherError(thrown)).toBe(true);
    if (!isTetherError(thrown)) return;
    expect(thrown.code).toBe("config_invalid");
    expect(thrown.message).toMatch(/^The parameters schema of tool "openScreen" is not a valid JSON Schema: /);
    expect(thrown.cause).toBeInstanceOf(Error);
  });

  it("compiles a schema object once and reuses the validator", () => {
    const schema = { type: "object", properties: { query: { type: "string" } } };

    expect(compileSchema(schema, "tool")).toBe(compileSchema(schema, "tool"));
  });

  // Ajv registers a schema's `$id`: a second schema object with the same `$id` (the same catalog
  // file loaded twice, or a second agent allow-listing the same tool) must still compile.
  it("compiles two separate but identical schemas that declare the same $id", () => {
    const fromFirstLoad = { $id: "https://workdesk.example/schemas/open-screen.json", type: "object", properties: { id: { type: "string" } } };
    const fromSecondLoad = structuredClone(fromFirstLoad);

    expect(compileSchema(fromFirstLoad, "first agent")({ id: "MNU-3120" })).toBe(true);
    expect(compileSchema(fromSecondLoad, "second agent")({ id: "MNU-3120" })).toBe(true);
  });

  // An approval's response schema comes back from the store as a new object on every answer;
  // compiling each copy would keep one more compiled schema in Ajv per answer, for ever.
  it("compiles a schema once per content, however many copies of it come in", () => {
    const own = createArgumentChecker();
    const stored = { type: "object", properties: { approved: { type: "boolean" }, comment: { type: "string" } }, required: ["approved"] };
    const first = own.compile(structuredClone(stored), "interrupt");
    for (let answer = 0; answer < 50; answer++) expect(own.compile(structuredClone(stored), "interrupt")).toBe(first);
    expect(own.compile({ ...stored, required: ["comment"] }, "interrupt")).not.toBe(first);
  });
});
