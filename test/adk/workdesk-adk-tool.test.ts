import { LlmAgent } from "@google/adk";
import { createScriptedLlm } from "@tether-agent/tether/adk";
import { TetherError, toJsonSchema, type ApprovalResponse } from "@tether-agent/tether/protocol";
import { defineTool } from "@tether-agent/tether/server";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { toAdkTool } from "../../apps/workdesk/adk/adk-tool.ts";
import { WORKDESK_ADK_PARAMETERS } from "../../apps/workdesk/adk/tools.ts";
import { closeWorkRequestTool } from "../../apps/workdesk/agent/close-work-request.ts";
import { createSqliteWorkRequestRepository } from "../../apps/workdesk/agent/index.ts";
import { workdeskTools } from "../../apps/workdesk/agent/tools.ts";
import type { WorkdeskUser } from "../../apps/workdesk/agent/index.ts";
import { userMessage } from "../fixtures/messages.ts";
import { callNamed, resultOf, spoken } from "../helpers/run-events.ts";
import { createAdkApp, interruptsOf } from "./adk-app.ts";
import { approve, reject } from "./fixtures.ts";

/**
 * How apps/workdesk/adk/ turns a Workdesk server tool into an ADK tool: the
 * Tether tool's rights check, approval rule, approval edit and code, for the
 * user of the run, in one ADK agent served by Tether (test/adk/adk-app.ts:
 * kim is a clerk, lee a manager).
 */

/** An ADK agent with one tool made from a Tether tool, which the scripted model calls once, then answers "Done.". */
async function oneTool(thing: string, options: { needsApproval?: () => boolean } = {}) {
  const ran: unknown[] = [];
  const answers: ApprovalResponse[] = [];
  const parameters = z.object({ thing: z.string(), note: z.string().optional() });
  const tool = defineTool<typeof parameters, WorkdeskUser>({
    name: "closeThing",
    description: "Closes a thing.",
    parameters,
    needsApproval: options.needsApproval ?? true,
    authorize: (args, user) => {
      if (args.thing === "locked" && !user.roles.includes("manager")) throw new TetherError("forbidden", "locked is locked: only a manager can close it.");
    },
    applyApproval: (args, response) => {
      answers.push(response);
      return response.comment ? { ...args, note: response.comment } : args;
    },
    execute: (args, { user, toolCallId }) => {
      if (args.thing === "broken") throw new Error("the disk is on fire");
      ran.push({ ...args, by: user.id });
      return { closed: args.thing, toolCallId };
    },
  });
  const model = createScriptedLlm([{ toolCalls: [{ toolName: "closeThing", input: { thing } }] }, { text: "Done." }]);
  const agent = new LlmAgent({ name: "workdesk", model, instruction: "Close things.", tools: [toAdkTool(tool, parameters)] });
  const app = await createAdkApp(agent);
  return { app, model, ran, answers };
}

describe("a Workdesk server tool as an ADK tool (toAdkTool)", () => {
  it("asks before a call that needs approval, and runs it once approved, with the person's answer applied", async () => {
    const { app, ran, answers } = await oneTool("door");
    const first = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "close the door")] }, "lee");
    const [question] = interruptsOf(first);
    expect(question).toMatchObject({ toolCallId: callNamed(first, "closeThing") });
    expect(ran).toEqual([]);

    const second = await app.run({ threadId: "t1", runId: "r2", resume: [approve(question!.id, "by the back")] }, "lee");
    // The answer reached the tool as ADK's toolConfirmation.payload, and the Tether tool's applyApproval used it.
    expect(answers).toEqual([{ approved: true, comment: "by the back" }]);
    expect(ran).toEqual([{ thing: "door", note: "by the back", by: "lee" }]);
    expect(JSON.parse(resultOf(second, question!.toolCallId)!)).toEqual({ closed: "door", toolCallId: question!.toolCallId });
    expect(spoken(second)).toBe("Done.");
  });

  it("refuses a call the user may not make, in the tool's own words, without asking anyone", async () => {
    const { app, model, ran } = await oneTool("locked");
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "close the lock")] }, "kim");
    expect(interruptsOf(events)).toEqual([]);
    expect(ran).toEqual([]);
    const refusal = { error: "locked is locked: only a manager can close it." };
    expect(JSON.parse(resultOf(events, callNamed(events, "closeThing"))!)).toEqual(refusal);
    // The model hears the refusal as the call's response.
    const heard = model.requests[1]!.contents.flatMap((content) => content.parts ?? []).find((part) => part.functionResponse);
    expect(heard?.functionResponse?.response).toEqual(refusal);
  });

  it("lets the manager's call of the same kind through to the question", async () => {
    const { app } = await oneTool("locked");
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "close the lock")] }, "lee");
    expect(interruptsOf(events)).toHaveLength(1);
  });

  it("runs a call without asking when the Tether tool needs no approval for it", async () => {
    const { app, ran } = await oneTool("door", { needsApproval: () => false });
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "close the door")] }, "kim");
    expect(interruptsOf(events)).toEqual([]);
    expect(ran).toEqual([{ thing: "door", by: "kim" }]);
  });

  it("never runs a call the person rejected, even when it needs no approval any more", async () => {
    let ask = true;
    const { app, ran } = await oneTool("door", { needsApproval: () => ask });
    const first = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "close the door")] }, "lee");
    const [question] = interruptsOf(first);
    // Closed elsewhere meanwhile, say: ADK, told the answer, would now run the call whatever it was; Tether answers a no itself.
    ask = false;
    const second = await app.run({ threadId: "t1", runId: "r2", resume: [reject(question!.id, "no")] }, "lee");
    expect(ran).toEqual([]);
    expect(JSON.parse(resultOf(second, question!.toolCallId)!)).toMatchObject({ status: "rejected", comment: "no" });
  });

  it("leaves a fault that is no refusal to ADK, which reports it as the tool's error", async () => {
    const { app } = await oneTool("broken", { needsApproval: () => false });
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "close it")] }, "kim");
    expect(JSON.parse(resultOf(events, callNamed(events, "closeThing"))!)).toEqual({ error: "Error in tool 'closeThing': the disk is on fire" });
  });
});

describe("the Workdesk ADK tools' arguments", () => {
  const requests = createSqliteWorkRequestRepository({ filename: ":memory:" });
  afterAll(async () => (await requests).closeDatabase());

  it("are the Tether tools' arguments, so the ADK agent is asked for and accepts the same calls", async () => {
    const tether = Object.fromEntries([...workdeskTools(await requests), closeWorkRequestTool(await requests)].map((tool) => [tool.name, tool.parameters]));
    for (const [name, parameters] of Object.entries(WORKDESK_ADK_PARAMETERS)) {
      // As Tether writes a zod schema for a model (what defineTool does with closeWorkRequest's).
      expect(toJsonSchema(parameters), name).toEqual(tether[name]);
    }
  });
});
