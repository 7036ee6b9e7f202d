import { z } from "zod";

/**
 * Why a run exists. A continuation run carries it in
 * `forwardedProps.tether.trigger`, so the run record can link each run to the
 * one before it and to what the user or the browser did in between.
 */
export const TRIGGER_KINDS = ["user-message", "tool-result", "ui-action", "resume", "regenerate"] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/**
 * An interrupt's id. In a stateless (client history) agent it is a signed
 * token that carries the thread and call ids it is about (`it1.<claims>.<HMAC>`),
 * so it is several hundred characters long, not one of the store's short ids.
 */
const INTERRUPT_ID = z.string().min(1).max(4096);

export const TriggerSchema = z.object({
  kind: z.enum(TRIGGER_KINDS),
  parentRunId: z.string().min(1).max(128).optional(),
  toolCallIds: z.array(z.string().min(1).max(128)).max(64).optional(),
  interruptIds: z.array(INTERRUPT_ID).max(64).optional(),
  action: z.record(z.string(), z.unknown()).optional(),
  /** `regenerate`: the user message to answer again, which must be the thread's last; the answer after it is set aside. */
  messageId: z.string().min(1).max(128).optional(),
});

export type Trigger = z.infer<typeof TriggerSchema>;
