import { z } from "zod";

/**
 * What an agent says before the first message: a greeting and messages a
 * newcomer can send with one click. Part of its capabilities
 * (`custom.welcome`), so every frontend of the agent offers the same.
 */
export const AgentWelcomeSchema = z.object({
  greeting: z.string().min(1).max(500).optional(),
  suggestions: z.array(z.string().trim().min(1).max(200)).max(6).optional(),
});

export type AgentWelcome = z.infer<typeof AgentWelcomeSchema>;

/** The welcome in an agent's capabilities; undefined when it has none or it is malformed. */
export function readWelcome(capabilities: { custom?: unknown } | undefined): AgentWelcome | undefined {
  const parsed = AgentWelcomeSchema.safeParse((capabilities?.custom as { welcome?: unknown } | undefined)?.welcome);
  return parsed.success ? parsed.data : undefined;
}
