import { describe, expect, it } from "vitest";
import { TriggerSchema } from "./trigger.ts";

describe("TriggerSchema", () => {
  it("takes a stateless agent's interrupt id, a signed token longer than other ids, in a resume trigger", () => {
    const signed = `it1.${"c".repeat(520)}.${"s".repeat(43)}`;
    expect(TriggerSchema.safeParse({ kind: "resume", parentRunId: "run_1", interruptIds: [signed] }).success).toBe(true);
  });

  it("still refuses an interrupt id past any token's size", () => {
    expect(TriggerSchema.safeParse({ kind: "resume", interruptIds: ["x".repeat(2049)] }).success).toBe(false);
  });
});
