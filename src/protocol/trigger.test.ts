import { describe, expect, it } from "vitest";
import { TriggerSchema } from "./trigger.ts";

describe("TriggerSchema", () => {
  it("takes a resume trigger naming a stateless agent's signed interrupt ids, which are hundreds of characters long", () => {
    // The shape of `it1.<claims>.<HMAC>` for a thread and a call with long ids: about 700 characters.
    const signed = `it1.${"eyJ0aHJlYWRJZCI6".repeat(44)}.${"s".repeat(43)}`;
    expect(signed.length).toBeGreaterThan(700);
    const parsed = TriggerSchema.safeParse({ kind: "resume", parentRunId: "run-1", interruptIds: [signed] });
    expect(parsed.success).toBe(true);
  });

  it("refuses an empty or an absurdly long interrupt id, and run and call ids past 128 characters", () => {
    expect(TriggerSchema.safeParse({ kind: "resume", interruptIds: [""] }).success).toBe(false);
    expect(TriggerSchema.safeParse({ kind: "resume", interruptIds: ["x".repeat(4097)] }).success).toBe(false);
    expect(TriggerSchema.safeParse({ kind: "resume", parentRunId: "r".repeat(129) }).success).toBe(false);
    expect(TriggerSchema.safeParse({ kind: "tool-result", toolCallIds: ["c".repeat(129)] }).success).toBe(false);
  });
});
