/**
 * The Workdesk story as an agent Tether does not run: written with the AI SDK
 * (`streamText` and its tools), served over AG-UI by a Hono route of its own.
 * It holds `lookupScreens` and the instructions; the browser's tools are the
 * ones each request hands it, which it leaves for the client to perform. Tether
 * stands in front of it as the demo agent `workdesk-upstream` and adds the
 * allow-list, exactly-once execution and the honest outcome.
 *
 * It trusts only Tether: a request must carry the token it was made with, and
 * names the signed-in user in `x-workdesk-user`, whose rights the lookup keeps to.
 */
import { randomUUID } from "node:crypto";
import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { jsonSchema, stepCountIs, streamText, tool, type ToolSet } from "ai";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { WORKDESK_USERS, type WorkRequestRepository } from "../agent/index.ts";
import { workdeskInstructions } from "../agent/instructions.ts";
import { lookupScreens } from "../agent/lookup-screens.ts";
import { toModelMessages } from "./model-messages.ts";

export interface AiSdkWorkdeskAgentOptions {
  model: LanguageModelV3;
  requests: WorkRequestRepository;
  /** What Tether sends as `Authorization: Bearer …`; anyone else is refused. */
  token: string;
}

export function aiSdkWorkdeskAgent(options: AiSdkWorkdeskAgentOptions): Hono {
  return new Hono().post("/", async (c) => {
    if (c.req.header("authorization") !== `Bearer ${options.token}`) return c.json({ error: "not Tether" }, 401);
    const user = WORKDESK_USERS.find((candidate) => candidate.id === c.req.header("x-workdesk-user"));
    if (!user) return c.json({ error: "no such user" }, 403);
    const input = (await c.req.json()) as RunAgentInput;

    const tools: ToolSet = {
      lookupScreens: tool({
        description:
          "Finds Workdesk screens the user can open, by name, by what they are for, or by a record they show. Always call this before navigateToScreen.",
        inputSchema: z.object({ query: z.string().min(1).max(200) }),
        execute: ({ query }) => lookupScreens(query, user, options.requests),
      }),
      // The client's tools, without an executor: the AI SDK stops at their calls, which the client performs.
      ...Object.fromEntries(
        input.tools.map((clientTool) => [clientTool.name, tool({ description: clientTool.description, inputSchema: jsonSchema(clientTool.parameters) })]),
      ),
    };
    const encoder = new EventEncoder();
    return streamSSE(c, async (stream) => {
      const send = (event: BaseEvent) => stream.write(encoder.encodeSSE(event));
      await send({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as BaseEvent);
      const result = streamText({
        model: options.model,
        system: workdeskInstructions(user),
        messages: toModelMessages(input.messages),
        tools,
        stopWhen: stepCountIs(5),
        abortSignal: c.req.raw.signal,
      });
      const messageIds = new Map<string, string>();
      const started = new Set<string>();
      for await (const part of result.fullStream) {
        switch (part.type) {
          case "text-start":
            messageIds.set(part.id, randomUUID());
            await send({ type: EventType.TEXT_MESSAGE_START, messageId: messageIds.get(part.id)!, role: "assistant" } as BaseEvent);
            break;
          case "text-delta":
            if (part.text) await send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: messageIds.get(part.id)!, delta: part.text } as BaseEvent);
            break;
          case "text-end":
            await send({ type: EventType.TEXT_MESSAGE_END, messageId: messageIds.get(part.id)! } as BaseEvent);
            break;
          case "tool-input-start":
            started.add(part.id);
            await send({ type: EventType.TOOL_CALL_START, toolCallId: part.id, toolCallName: part.toolName } as BaseEvent);
            break;
          case "tool-input-delta":
            await send({ type: EventType.TOOL_CALL_ARGS, toolCallId: part.id, delta: part.delta } as BaseEvent);
            break;
          case "tool-call":
            if (!started.has(part.toolCallId)) {
              await send({ type: EventType.TOOL_CALL_START, toolCallId: part.toolCallId, toolCallName: part.toolName } as BaseEvent);
              await send({ type: EventType.TOOL_CALL_ARGS, toolCallId: part.toolCallId, delta: JSON.stringify(part.input) } as BaseEvent);
            }
            await send({ type: EventType.TOOL_CALL_END, toolCallId: part.toolCallId } as BaseEvent);
            break;
          case "tool-result":
            await send({
              type: EventType.TOOL_CALL_RESULT,
              messageId: randomUUID(),
              toolCallId: part.toolCallId,
              content: JSON.stringify(part.output),
              role: "tool",
            } as BaseEvent);
            break;
          case "error":
            await send({ type: EventType.RUN_ERROR, message: part.error instanceof Error ? part.error.message : String(part.error) } as BaseEvent);
            return;
          default:
            break;
        }
      }
      await send({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId } as BaseEvent);
    });
  });
}
