import type { BaseLlm } from "@google/adk";
import { createGeminiLlm, createPlaybookLlm, type PlaybookLlmOptions } from "@tether-agent/tether/adk";
import { workdeskPlaybook } from "../agent/index.ts";

/**
 * The ADK agent's model: ADK's own Gemini when `TETHER_ADK_MODEL` names one
 * (such as `gemini-2.5-flash`, with `GOOGLE_API_KEY`, and `GOOGLE_GEMINI_BASE_URL`
 * for a gateway), otherwise the offline Workdesk playbook, the same script
 * the `workdesk` agent plays. `TETHER_MODEL` is for AI SDK models and does not
 * apply: an ADK agent calls its model through ADK.
 */
export function workdeskAdkModel(env: Record<string, string | undefined>, playbook: PlaybookLlmOptions = {}): BaseLlm {
  const model = env.TETHER_ADK_MODEL?.trim();
  if (!model) return createPlaybookLlm(workdeskPlaybook, playbook);
  // Without a key here, ADK reads the process's GOOGLE_GENAI_API_KEY, GOOGLE_API_KEY or GEMINI_API_KEY, and says so if none is set.
  return createGeminiLlm({
    model,
    ...(env.GOOGLE_API_KEY ? { apiKey: env.GOOGLE_API_KEY } : {}),
    ...(env.GOOGLE_GEMINI_BASE_URL ? { baseUrl: env.GOOGLE_GEMINI_BASE_URL } : {}),
  });
}
