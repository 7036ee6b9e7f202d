import { describe, expect, it } from "vitest";
import { parsePartialJson } from "./parse-partial-json.ts";

describe("parsePartialJson", () => {
  it("reads whole JSON as it is", () => {
    expect(parsePartialJson('{"location":"Paris","days":[1,2]}')).toEqual({ location: "Paris", days: [1, 2] });
  });

  it("shows a string value as it grows, closing what is open", () => {
    expect(parsePartialJson('{"location":"San Fr')).toEqual({ location: "San Fr" });
    expect(parsePartialJson('{"trip":{"stops":["Lyon","Ni')).toEqual({ trip: { stops: ["Lyon", "Ni"] } });
    expect(parsePartialJson('{"quote":"say \\"hi')).toEqual({ quote: 'say "hi' });
    expect(parsePartialJson('{"path":"C:\\')).toEqual({ path: "C:" }); // a dangling escape is dropped
  });

  it("leaves out what cannot be closed (a key without its value, a trailing comma) and completes half a literal", () => {
    expect(parsePartialJson('{"a":1,"loc')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a":1,"location":')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a":1,"metric":tr')).toEqual({ a: 1, metric: true });
    expect(parsePartialJson('{"a":[1,2,')).toEqual({ a: [1, 2] });
    expect(parsePartialJson('{"a":{"b":1},"c":{"d"')).toEqual({ a: { b: 1 }, c: {} });
    expect(parsePartialJson("{")).toEqual({});
  });

  it("reads nothing from text that is not JSON", () => {
    expect(parsePartialJson("")).toBeUndefined();
    expect(parsePartialJson("location=Paris, days=3")).toBeUndefined();
  });
});
