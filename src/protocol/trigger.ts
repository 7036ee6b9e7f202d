import { z } from "zod";

/**
 * Why a run exists. A continuation run carries it in
 * `forwardedProps.tether.trigger`, so the run record can link each run to the
 * one before it and to what the user or the browser did in between.
 */
export const TRIGGER_KINDS = ["user-message", "tool-result", "ui-action", "resume"] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export const TriggerSchema = z.object({
  kind: z.enum(TRIGGER_KINDS),
  parentRunId: z.string().min(1).max(128).optional(),
  toolCallIds: z.array(z.string().min(1).max(128)).max(64).optional(),
  // Not 128 like the other ids: a stateless agent's interrupt id is a signed token carrying its thread, call and tool (`it1.<claims>.<HMAC>`).
  interruptIds: z.array(z.string().min(1).max(2048)).max(64).optional(),
  action: z.record(z.string(), z.unknown()).optional(),
});

export type Trigger = z.infer<typeof TriggerSchema>;
