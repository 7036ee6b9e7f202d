import { REQUEST_CONFIRMATION_FUNCTION_CALL_NAME, createEvent, createEventActions, type Event } from "@google/adk";
import type { ApprovalResponse } from "../../../protocol/index.ts";
import type { EngineConfirmation } from "../../agent/index.ts";

type Content = NonNullable<Event["content"]>;

/** What ADK's own confirmation request told the model it was waiting for; the person saw Tether's words. */
const HINT = "Waiting for a person to approve or reject this call.";

/** The id of the confirmation request for a held call: fixed, so a replay is the same every time. */
export const confirmationRequestId = (toolCallId: string) => `adk-confirm-${toolCallId}`;

/**
 * The person's answers delivered as ADK expects a confirmation: after the replayed thread, each held
 * call's request as the agent made it (pinning the call exactly as it was asked about), and the
 * answers as the new user message, which ADK requires to be the latest user event. ADK then runs the
 * approved calls with the person's answer as `toolContext.toolConfirmation.payload`, and answers the
 * rejected ones itself. Nothing of ADK's first session is needed: this is built from the store.
 */
export function confirmationExchange(confirmations: EngineConfirmation[], agentName: string): { events: Event[]; newMessage: Content } {
  const events: Event[] = [];
  for (const { stored } of confirmations) {
    // A gate a tool raised itself (`requestConfirmation()`) is bound to the placeholder response it left.
    events.push(
      createEvent({
        invocationId: "tether",
        author: agentName,
        actions: createEventActions({ requestedToolConfirmations: { [stored.toolCallId]: { hint: HINT, confirmed: false } } }),
        content: {
          role: "user",
          parts: [
            {
              functionResponse: {
                id: stored.toolCallId,
                name: stored.toolName,
                response: { error: "This tool call requires confirmation, please approve or reject." },
              },
            },
          ],
        },
      }),
    );
    const requestId = confirmationRequestId(stored.toolCallId);
    events.push(
      createEvent({
        invocationId: "tether",
        author: agentName,
        longRunningToolIds: [requestId],
        content: {
          role: "model",
          parts: [
            {
              functionCall: {
                id: requestId,
                name: REQUEST_CONFIRMATION_FUNCTION_CALL_NAME,
                args: {
                  originalFunctionCall: { id: stored.toolCallId, name: stored.toolName, args: parseArguments(stored.arguments) },
                  toolConfirmation: { hint: HINT, confirmed: false },
                },
              },
            },
          ],
        },
      }),
    );
  }
  const newMessage: Content = {
    role: "user",
    parts: confirmations.map(({ stored, answer }) => {
      const response = answer.payload as ApprovalResponse | undefined;
      const confirmed = answer.status === "resolved" && response?.approved === true;
      // A cancelled or lapsed approval is a "no" to ADK; the payload says which.
      const payload = answer.status === "cancelled" ? { approved: false, cancelled: true } : (response ?? { approved: false });
      return {
        functionResponse: { id: confirmationRequestId(stored.toolCallId), name: REQUEST_CONFIRMATION_FUNCTION_CALL_NAME, response: { confirmed, payload } },
      };
    }),
  };
  return { events, newMessage };
}

/** A call's arguments as stored (JSON text) back to the object ADK compares them with. */
export function parseArguments(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
