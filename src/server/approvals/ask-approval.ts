import type { Interrupt } from "@ag-ui/core";
import { TOOL_APPROVAL } from "../../protocol/index.ts";
import type { HistoryMode } from "../history/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { StoredInterrupt } from "../store/index.ts";
import type { RunTool } from "../tools/index.ts";
import { hashArguments, signInterruptId } from "./interrupt-token.ts";

export interface ApprovalRequest {
  toolCallId: string;
  tool: RunTool & { approval: NonNullable<RunTool["approval"]> };
  args: unknown;
  argumentsText: string;
  user: TetherUser;
  threadId: string;
  runId: string;
  mode: HistoryMode;
  expiresInMs: number;
  secret: string;
  newId(): string;
  now(): Date;
}

/**
 * The interrupt that asks a person to approve one call: what will happen in a
 * sentence, the call it is about, what the answer must look like, and when
 * the question lapses.
 */
export function askApproval(request: ApprovalRequest): StoredInterrupt {
  const { tool, user } = request;
  const expiresAt = new Date(request.now().getTime() + request.expiresInMs).toISOString();
  const id =
    request.mode === "client"
      ? signInterruptId(
          {
            threadId: request.threadId,
            toolCallId: request.toolCallId,
            toolName: tool.name,
            argumentsHash: hashArguments(request.argumentsText),
            userId: user.id,
            expiresAt,
          },
          request.secret,
        )
      : request.newId();
  const interrupt: Interrupt = {
    id,
    reason: TOOL_APPROVAL,
    message: tool.approval.message(request.args, user),
    toolCallId: request.toolCallId,
    responseSchema: tool.approval.responseSchema,
    expiresAt,
    metadata: { tether: { toolName: tool.name, arguments: request.args } },
  };
  return {
    interrupt,
    threadId: request.threadId,
    runId: request.runId,
    userId: user.id,
    toolCallId: request.toolCallId,
    toolName: tool.name,
    arguments: request.argumentsText,
    status: "pending",
  };
}
