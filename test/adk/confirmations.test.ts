import type { ScriptedLlmStep } from "@tether-agent/tether/adk";
import { describe, expect, it } from "vitest";
import { userMessage } from "../fixtures/messages.ts";
import { callNamed, resultOf, spoken } from "../helpers/run-events.ts";
import { createAdkApp, interruptsOf } from "./adk-app.ts";
import { approve, deleteFileTool, openPanel, reject, scriptedAgent, weatherTool } from "./fixtures.ts";

/** The person's no, with a reason. */
const rejectThat = (interruptId: string) => reject(interruptId, "not that one");

/** The turn of the issue: a call that needs no confirmation beside one that does (and, with `browser`, a browser call). */
async function mixedTurn(options: { browser?: boolean } = {}) {
  const ran: string[] = [];
  const getWeather = weatherTool({ onRun: (city) => ran.push(`get_weather(${city})`) });
  const deleteFile = deleteFileTool({ onRun: (path) => ran.push(`delete_file(${path})`), echoPayload: true });
  const steps: ScriptedLlmStep[] = [
    {
      toolCalls: [
        { toolName: "get_weather", input: { city: "Paris" } },
        { toolName: "delete_file", input: { path: "/tmp/x" } },
        ...(options.browser ? [{ toolName: "openPanel", input: { panel: "files" } }] : []),
      ],
    },
    { text: "Sunny, and the file is handled." },
    { text: "Anything else?" },
  ];
  const { model, agent } = scriptedAgent(steps, [getWeather, deleteFile]);
  const app = await createAdkApp(agent, {
    browserTools: [openPanel],
    approvals: { delete_file: { message: ({ path }) => `Delete ${path}?` } },
  });
  const tools = options.browser ? [{ name: openPanel.name, description: openPanel.description, parameters: openPanel.parameters }] : [];
  const first = await app.run({ threadId: "t1", runId: "r1", tools, messages: [userMessage("u1", "weather in Paris, delete /tmp/x")] });
  const [question] = interruptsOf(first);
  return { app, model, ran, first, question: question!, tools };
}

describe("ADK confirmations as Tether approvals", () => {
  it("keeps the result of the call that needed no confirmation: streamed and stored in run 1, and in the next model request", async () => {
    const { app, model, ran, first, question } = await mixedTurn();
    expect(ran).toEqual(["get_weather(Paris)"]);
    const weather = callNamed(first, "get_weather");
    expect(JSON.parse(resultOf(first, weather)!)).toEqual({ city: "Paris", forecast: "sunny" });
    expect(question.message).toBe("Delete /tmp/x?");
    expect(question.toolCallId).toBe(callNamed(first, "delete_file"));
    expect(question.metadata.tether.arguments).toEqual({ path: "/tmp/x" });
    const stored = await app.store.getMessages("t1");
    expect(stored.some((message) => message.role === "tool" && message.toolCallId === weather)).toBe(true);

    const second = await app.run({ threadId: "t1", runId: "r2", resume: [approve(question.id)] });
    expect(ran).toEqual(["get_weather(Paris)", "delete_file(/tmp/x)"]);
    expect(JSON.parse(resultOf(second, question.toolCallId)!)).toMatchObject({ deleted: "/tmp/x", payload: { approved: true } });
    expect(spoken(second)).toBe("Sunny, and the file is handled.");
    // What ADK alone gets wrong: the model's next request answers every call of the turn.
    const next = model.requests[1]!.contents;
    const calls = next.flatMap((content) => (content.parts ?? []).filter((part) => part.functionCall).map((part) => part.functionCall!.name));
    const responses = next.flatMap((content) => (content.parts ?? []).filter((part) => part.functionResponse).map((part) => part.functionResponse!.name));
    expect(calls).toEqual(["get_weather", "delete_file"]);
    expect(responses.sort()).toEqual(["delete_file", "get_weather"]);
  });

  it("runs nothing on a rejection, and the model hears it was rejected", async () => {
    const { app, model, ran, question } = await mixedTurn();
    const second = await app.run({ threadId: "t1", runId: "r2", resume: [rejectThat(question.id)] });
    expect(ran).toEqual(["get_weather(Paris)"]);
    const refusal = { status: "rejected", message: "The user rejected delete_file; it did not run.", comment: "not that one" };
    expect(JSON.parse(resultOf(second, question.toolCallId)!)).toEqual(refusal);
    const answered = model.requests[1]!.contents.flatMap((content) => content.parts ?? []).find((part) => part.functionResponse?.name === "delete_file");
    expect(answered?.functionResponse?.response).toEqual(refusal);
  });

  it("gives the same result for the same answer sent twice, and runs nothing again", async () => {
    const { app, ran, question } = await mixedTurn();
    const once = await app.run({ threadId: "t1", runId: "r2", resume: [approve(question.id)] });
    const twice = await app.run({ threadId: "t1", runId: "r3", resume: [approve(question.id)] });
    expect(twice).toEqual(once);
    expect(ran).toEqual(["get_weather(Paris)", "delete_file(/tmp/x)"]);
  });

  it("refuses a different answer to a confirmation already answered: resume_conflict, and nothing runs", async () => {
    const { app, ran, question } = await mixedTurn();
    await app.run({ threadId: "t1", runId: "r2", resume: [rejectThat(question.id)] });
    const changed = await app.post({ threadId: "t1", runId: "r3", resume: [approve(question.id)] });
    expect(changed.status).toBe(409);
    expect((await changed.json()).error.code).toBe("resume_conflict");
    expect(ran).toEqual(["get_weather(Paris)"]);
  });

  it("keeps all three results of a turn with a confirmation, a browser call and a server call", async () => {
    const { app, model, ran, first, question, tools } = await mixedTurn({ browser: true });
    const panel = callNamed(first, "openPanel");
    // The page reports its call and the person approves, in one request.
    const second = await app.run({
      threadId: "t1",
      runId: "r2",
      tools,
      messages: [
        ...(await app.store.getMessages("t1")),
        { id: "res1", role: "tool", toolCallId: panel, content: JSON.stringify({ status: "success", panel: "files" }) },
      ],
      resume: [approve(question.id)],
    });
    expect(ran).toEqual(["get_weather(Paris)", "delete_file(/tmp/x)"]);
    expect(resultOf(second, question.toolCallId)).toContain("deleted");
    expect(spoken(second)).toBe("Sunny, and the file is handled.");
    const responses = model.requests[1]!.contents.flatMap((content) =>
      (content.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse.name] : [])),
    );
    expect(responses.sort()).toEqual(["delete_file", "get_weather", "openPanel"]);
  });
});
