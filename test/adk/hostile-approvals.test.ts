import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseEvent, Message } from "@ag-ui/core";
import { FunctionTool, LlmAgent, type BaseTool } from "@google/adk";
import type { ScriptedLlmStep } from "@tether-agent/tether/adk";
import type { RunStore } from "@tether-agent/tether/store";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { userMessage } from "../fixtures/messages.ts";
import { finished, resultOf, spoken } from "../helpers/run-events.ts";
import { createAdkApp, interruptsOf } from "./adk-app.ts";
import { approve, cancel, deleteFileTool, reject, scriptedAgent } from "./fixtures.ts";
import { callsIn, responsesIn } from "./model-requests.ts";

/**
 * ADK confirmations answered the hard ways: cancelled, lapsed, after the tool left the agent,
 * two in one turn (one at a time, or together), beside a new message, in client mode, across a restart.
 */

/** `delete_file`, noting each run with the person's payload; `ran` lists what executed. */
const deleteFileNoted = (ran: string[]) => deleteFileTool({ onRun: (path, payload) => ran.push(`delete_file(${path}) ${JSON.stringify(payload)}`) });
const note = new FunctionTool({ name: "note", description: "Notes.", parameters: z.object({ text: z.string() }), execute: ({ text }) => ({ noted: text }) });

function agentWith(steps: ScriptedLlmStep[], tools: (ran: string[]) => BaseTool[] = (ran) => [deleteFileNoted(ran)]) {
  const ran: string[] = [];
  return { ran, ...scriptedAgent(steps, tools(ran)) };
}
const deleteA: ScriptedLlmStep = { toolCalls: [{ toolName: "delete_file", input: { path: "/a" } }] };
const deleteTwo: ScriptedLlmStep = {
  toolCalls: [
    { toolName: "delete_file", input: { path: "/a" } },
    { toolName: "delete_file", input: { path: "/b" } },
  ],
};

/** The app again after a restart: the same store, the next version of the agent, ids of its own. */
const restartedApp = (agent: LlmAgent, store: RunStore) => createAdkApp(agent, { store, idPrefix: "after-" });

/**
 * Run 1 of a thread whose client owns the history, asking `text` of an agent that plays `steps` (as kim),
 * and the history the client sends back after it: its own message, then what the run's snapshot added.
 */
async function clientModeFirstRun(steps: ScriptedLlmStep[], text: string) {
  const { ran, model, agent } = agentWith(steps);
  const app = await createAdkApp(agent, { history: "client" });
  const first = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", text)] });
  const history = [userMessage("u1", text), ...snapshotOf(first).filter((message) => message.role !== "user")];
  return { ran, model, app, first, questions: interruptsOf(first), history };
}

describe("ADK confirmations answered the hard ways", () => {
  it("cancelled: nothing runs, and the model hears it was not approved", async () => {
    const { ran, model, agent } = agentWith([deleteA, { text: "Not deleted." }]);
    const app = await createAdkApp(agent);
    const [question] = interruptsOf(await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /a")] }));
    const second = await app.run({ threadId: "t1", runId: "r2", resume: [cancel(question!.id)] });
    expect(ran).toEqual([]);
    // Tether's answer, not ADK's "rejected": the model hears it was cancelled.
    expect(JSON.parse(resultOf(second, question!.toolCallId)!)).toMatchObject({ status: "cancelled" });
    expect(responsesIn(model.requests[1]!.contents).map((response) => response.name)).toEqual(["delete_file"]);
    expect(spoken(second)).toBe("Not deleted.");
  });

  it("lapsed: an approval is refused (interrupt_expired), a cancellation still closes it, and nothing runs", async () => {
    const { ran, agent } = agentWith([deleteA, { text: "It lapsed." }]);
    const app = await createAdkApp(agent, { approvalTimeoutMs: 1 });
    const [question] = interruptsOf(await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /a")] }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const late = await app.post({ threadId: "t1", runId: "r2", resume: [approve(question!.id)] });
    expect(late.status).toBe(410);
    expect((await late.json()).error.code).toBe("interrupt_expired");
    const closed = await app.run({ threadId: "t1", runId: "r3", resume: [cancel(question!.id)] });
    expect(finished(closed)).toEqual({ type: "success" });
    expect(ran).toEqual([]);
  });

  it("answered after the tool left the agent (a restart on the same store): refused as unknown, nothing runs, the run ends well", async () => {
    const store = createSqliteRunStore({ filename: join(mkdtempSync(join(tmpdir(), "tether-adk-")), "tether.db") });
    const before = agentWith([deleteA]);
    const first = await createAdkApp(before.agent, { store });
    const [question] = interruptsOf(await first.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /a")] }));
    // The next version of the app has no delete_file.
    const after = agentWith([{ text: "That tool is gone." }], () => [note]);
    const second = await restartedApp(after.agent, store);
    const events = await second.run({ threadId: "t1", runId: "r2", resume: [approve(question!.id)] });
    expect(before.ran).toEqual([]);
    expect(JSON.parse(resultOf(events, question!.toolCallId)!).error.code).toBe("tool_unknown");
    expect(finished(events)).toEqual({ type: "success" });
    expect(spoken(events)).toBe("That tool is gone.");
    await second.tether.close();
  });

  it("survives a restart between the question and its answer (SQLite): the call runs once, with the person's answer", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "tether-adk-")), "tether.db");
    const before = agentWith([deleteA]);
    const first = await createAdkApp(before.agent, { store: createSqliteRunStore({ filename: file }) });
    const [question] = interruptsOf(await first.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /a")] }));
    await first.tether.close();
    const after = agentWith([{ text: "Deleted." }]);
    const second = await restartedApp(after.agent, createSqliteRunStore({ filename: file }));
    const events = await second.run({ threadId: "t1", runId: "r2", resume: [approve(question!.id, "sure")] });
    expect(after.ran).toEqual(['delete_file(/a) {"approved":true,"comment":"sure"}']);
    expect(resultOf(events, question!.toolCallId)).toContain("deleted");
    expect(spoken(events)).toBe("Deleted.");
    await second.tether.close();
  });

  it("two in one turn, answered one at a time (server mode): the first answer alone is refused, nothing runs", async () => {
    const { ran, agent } = agentWith([deleteTwo, { text: "Both handled." }]);
    const app = await createAdkApp(agent);
    const questions = interruptsOf(await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /a and /b")] }));
    expect(questions).toHaveLength(2);
    const one = await app.post({ threadId: "t1", runId: "r2", resume: [approve(questions[0]!.id)] });
    expect(one.status).toBe(409);
    expect((await one.json()).error.code).toBe("interrupt_pending");
    expect(ran).toEqual([]);
  });

  it("two in one turn, answered together (one yes, one no): each gets its own answer, the model sees both", async () => {
    const { ran, model, agent } = agentWith([deleteTwo, { text: "Deleted /a, kept /b." }]);
    const app = await createAdkApp(agent);
    const first = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /a and /b")] });
    const [a, b] = interruptsOf(first);
    const second = await app.run({ threadId: "t1", runId: "r2", resume: [approve(a!.id, "a only"), reject(b!.id)] });
    expect(ran).toEqual(['delete_file(/a) {"approved":true,"comment":"a only"}']);
    expect(resultOf(second, a!.toolCallId)).toContain("deleted");
    expect(resultOf(second, b!.toolCallId)).toContain("rejected");
    // ADK strips its own `adk-` ids from what the model is sent: both results, one per call.
    const contents = model.requests[1]!.contents;
    expect(callsIn(contents).map((call) => call.name)).toEqual(["delete_file", "delete_file"]);
    expect(responsesIn(contents).map((response) => response.response)).toEqual(
      expect.arrayContaining([{ deleted: "/a" }, expect.objectContaining({ status: "rejected" })]),
    );
    expect(spoken(second)).toBe("Deleted /a, kept /b.");
  });

  it("an answer and a new user message in one request: the call runs once and both are stored", async () => {
    const { ran, agent } = agentWith([deleteA, { text: "Deleted; and hello." }]);
    const app = await createAdkApp(agent);
    const [question] = interruptsOf(await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /a")] }));
    const events = await app.run({
      threadId: "t1",
      runId: "r2",
      messages: [...(await app.store.getMessages("t1")), userMessage("u2", "and say hello")],
      resume: [approve(question!.id)],
    });
    expect(finished(events)).toEqual({ type: "success" });
    expect(ran).toHaveLength(1);
    const stored = await app.store.getMessages("t1");
    expect(stored.some((message) => message.role === "user" && message.content === "and say hello")).toBe(true);
  });

  // ADK builds the model's request so that the tool's response follows its call directly, and drops every
  // event between them (rearrangeEventsForLatestFunctionResponse): the person's new message goes to the
  // model after the approved call's result instead.
  it("an answer and a new user message in one request: the model hears the new message, after the call's result", async () => {
    const { agent, model } = agentWith([deleteA, { text: "Deleted; and hello." }]);
    const app = await createAdkApp(agent);
    const [question] = interruptsOf(await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /a")] }));
    await app.run({
      threadId: "t1",
      runId: "r2",
      messages: [...(await app.store.getMessages("t1")), userMessage("u2", "and say hello")],
      resume: [approve(question!.id)],
    });
    const contents = model.requests[1]!.contents;
    const said = contents.findIndex((content) => JSON.stringify(content).includes("and say hello"));
    const result = contents.findIndex((content) => (content.parts ?? []).some((part) => part.functionResponse?.name === "delete_file"));
    expect(said).toBeGreaterThan(result);
    expect(result).toBeGreaterThan(-1);
  });

  it("a cancel and a new user message in one request (the person moved on): nothing runs, the model hears both", async () => {
    const { ran, agent, model } = agentWith([deleteA, { text: "Fine, not deleted; hello." }]);
    const app = await createAdkApp(agent);
    const [question] = interruptsOf(await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /a")] }));
    const events = await app.run({
      threadId: "t1",
      runId: "r2",
      messages: [...(await app.store.getMessages("t1")), userMessage("u2", "never mind, say hello")],
      resume: [cancel(question!.id)],
    });
    expect(ran).toEqual([]);
    expect(spoken(events)).toBe("Fine, not deleted; hello.");
    const contents = JSON.stringify(model.requests[1]!.contents);
    expect(contents).toContain("never mind, say hello");
    expect(contents).toContain("cancelled");
  });

  it("client mode: an approval with the signed id runs the call once; the same answer after its result is refused", async () => {
    const { ran, app, questions, history } = await clientModeFirstRun([deleteA, { text: "Deleted." }], "delete /a");
    const [question] = questions;
    const second = await app.run({ threadId: "t1", runId: "r2", messages: history, resume: [approve(question!.id)] });
    expect(ran).toHaveLength(1);
    expect(resultOf(second, question!.toolCallId)).toContain("deleted");
    const withResult = [...history, { id: "res", role: "tool" as const, toolCallId: question!.toolCallId, content: resultOf(second, question!.toolCallId)! }];
    // The same answer again is a repeat (the first run's events, or a refusal): never a second execution.
    await (await app.post({ threadId: "t1", runId: "r3", messages: withResult, resume: [approve(question!.id)] })).text();
    await (await app.post({ threadId: "t1", runId: "r4", messages: history, resume: [approve(question!.id)] })).text();
    expect(ran).toHaveLength(1);
  });

  it("an answer carrying more than { approved, comment } is refused: nothing of the client's reaches the tool's payload", async () => {
    const { ran, agent } = agentWith([deleteA, { text: "Deleted." }]);
    const app = await createAdkApp(agent);
    const [question] = interruptsOf(await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "delete /a")] }));
    for (const payload of [{ approved: true, path: "/etc" }, { approved: "true" }, {}]) {
      const response = await app.post({
        threadId: "t1",
        runId: `r-${JSON.stringify(payload).length}`,
        resume: [{ interruptId: question!.id, status: "resolved", payload }],
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe("resume_invalid");
    }
    expect(ran).toEqual([]);
  });

  it("client mode: another user's signed approval is refused on their own thread too", async () => {
    const { ran, app, questions, history } = await clientModeFirstRun([deleteA, { text: "Deleted." }], "delete /a");
    const [question] = questions;
    const onKims = await app.post({ threadId: "t1", runId: "r2", messages: history, resume: [approve(question!.id)] }, "lee");
    expect(onKims.status).toBe(403);
    const onHis = await app.post({ threadId: "lee-t", runId: "r3", messages: history, resume: [approve(question!.id)] }, "lee");
    expect(onHis.status).toBe(403);
    expect((await onHis.json()).error.code).toBe("interrupt_thread_mismatch");
    expect(ran).toEqual([]);
  });

  it("client mode: the person's edit of the arguments never reaches ADK as other arguments (the call runs as asked)", async () => {
    const { ran, app, questions, history: sent } = await clientModeFirstRun([deleteA, { text: "Deleted." }], "delete /a");
    const [question] = questions;
    // The client rewrites the held call's arguments in the history it sends back: the signed id no longer matches.
    const history = sent.map((message) =>
      message.role === "assistant" && message.toolCalls
        ? { ...message, toolCalls: message.toolCalls.map((call) => ({ ...call, function: { ...call.function, arguments: '{"path":"/etc"}' } })) }
        : message,
    );
    const forged = await app.post({ threadId: "t1", runId: "r2", messages: history, resume: [approve(question!.id)] });
    expect(forged.status).toBe(400);
    expect((await forged.json()).error.code).toBe("resume_invalid");
    expect(ran).toEqual([]);
  });

  it("client mode: answering one of two held calls leaves no call without a result in the model's request", async () => {
    const { model, app, questions, history } = await clientModeFirstRun([deleteTwo, { text: "Deleted /a." }], "delete /a and /b");
    const [a] = questions;
    const second = await app.run({ threadId: "t1", runId: "r2", messages: history, resume: [approve(a!.id)] });
    expect(resultOf(second, a!.toolCallId)).toContain("deleted");
    // ADK strips its own `adk-` ids from the request: calls and results are matched by count and content here.
    const contents = model.requests[1]!.contents;
    expect(callsIn(contents)).toHaveLength(2);
    expect(responsesIn(contents)).toHaveLength(2);
    expect(JSON.stringify(responsesIn(contents))).toContain("no_result_reported");
  });
});

/** The messages of the last MESSAGES_SNAPSHOT a run sent (the interrupt's). */
function snapshotOf(events: BaseEvent[]): Message[] {
  const snapshot = events.findLast((event) => event.type === "MESSAGES_SNAPSHOT") as { messages?: Message[] } | undefined;
  return snapshot?.messages ?? [];
}
