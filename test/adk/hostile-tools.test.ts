import { FunctionTool, type Context } from "@google/adk";
import { createScriptedLlm } from "@tether-agent/tether/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { userMessage } from "../fixtures/messages.ts";
import { callNamed, finished, resultOf, spoken } from "../helpers/run-events.ts";
import { createAdkApp, interruptsOf } from "./adk-app.ts";
import { approve, assistantAgent, deleteFileTool } from "./fixtures.ts";
import { ofType } from "./model-requests.ts";

/**
 * A careless app's ADK tools: ones that throw, return what is not an object (or not JSON at all),
 * write state in ADK's scopes, ask for confirmation themselves, or pull ADK's control levers.
 */

/** One tool `probe` doing `execute`, and a gated `delete_file`; the model calls `probe` (beside `delete_file` when `held`). */
async function probeApp(execute: (context: Context | undefined) => unknown, options: { held?: boolean; then?: string } = {}) {
  const probe = new FunctionTool({ name: "probe", description: "Probes.", parameters: z.object({}), execute: (_args, context) => execute(context) });
  const deleteFile = deleteFileTool();
  const model = createScriptedLlm([
    {
      toolCalls: [{ toolName: "probe", input: {} }, ...(options.held ? [{ toolName: "delete_file", input: { path: "/tmp/x" } }] : [])],
    },
    { text: options.then ?? "Done." },
    { text: "Done again." },
  ]);
  const agent = assistantAgent(model, [probe, deleteFile]);
  const app = await createAdkApp(agent);
  const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "probe")] });
  return { app, model, events };
}

describe("a careless app's ADK tools", () => {
  it.each<[string, () => unknown]>([
    ["undefined", () => undefined],
    ["null", () => null],
    ["an array", () => [1, 2]],
    ["a string", () => "plain words"],
    ["a number", () => 42],
    ["an object", () => ({ ok: true })],
    ["a thrown Error", () => Promise.reject(new Error("disk full"))],
  ])("returns %s: the result Tether keeps is the same whether ADK reported it or dropped it beside a confirmation", async (_name, execute) => {
    const plain = await probeApp(execute);
    const held = await probeApp(execute, { held: true });
    const reported = resultOf(plain.events, callNamed(plain.events, "probe"));
    const captured = resultOf(held.events, callNamed(held.events, "probe"));
    expect(reported).toBeDefined();
    expect(captured).toBe(reported);
  });

  it("throws something that is not an Error beside a confirmation: the kept result still says it failed", async () => {
    const plain = await probeApp(() => Promise.reject("disk full"));
    const held = await probeApp(() => Promise.reject("disk full"), { held: true });
    const reported = resultOf(plain.events, callNamed(plain.events, "probe"));
    expect(reported).toContain("disk full");
    expect(resultOf(held.events, callNamed(held.events, "probe"))).toBe(reported);
  });

  it.each<[string, () => unknown]>([
    ["a BigInt", () => ({ count: 10n })],
    [
      "a circular object",
      () => {
        const node: Record<string, unknown> = { name: "loop" };
        node.self = node;
        return node;
      },
    ],
  ])("returns %s (not JSON): the call gets an error result and the run goes on", async (_name, execute) => {
    const { events } = await probeApp(execute);
    expect(finished(events)).toEqual({ type: "success" });
    expect(resultOf(events, callNamed(events, "probe"))).toContain("error");
    expect(spoken(events)).toBe("Done.");
  });

  it("returns a huge object: it is streamed and stored whole (nothing caps an ADK tool's result)", async () => {
    const big = "x".repeat(2_000_000);
    const { app, events } = await probeApp(() => ({ big }));
    expect(resultOf(events, callNamed(events, "probe"))!.length).toBeGreaterThan(2_000_000);
    const stored = await app.store.getMessages("t1");
    expect(stored.some((message) => message.role === "tool" && String(message.content).length > 2_000_000)).toBe(true);
  });

  it("writes temp:, app: and user: state: temp: stays ADK's, the others go out as the run's state", async () => {
    const { events } = await probeApp(
      (context) => {
        context!.state.set("temp:scratch", 1);
        context!.state.set("app:flag", true);
        context!.state.set("user:plan", "pro");
        context!.state.set("a/b~c", "escaped");
        return { ok: true };
      },
      { held: true },
    );
    const ops = ofType(events, "STATE_DELTA").flatMap((event) => event.delta as Array<{ path: string; value: unknown }>);
    expect(ops.map((op) => op.path).sort()).toEqual(["/a~1b~0c", "/app:flag", "/user:plan"].sort());
    const snapshot = ofType(events, "STATE_SNAPSHOT").at(-1)!.snapshot;
    expect(snapshot).toEqual({ "app:flag": true, "user:plan": "pro", "a/b~c": "escaped" });
  });

  it("asks for confirmation itself (requestConfirmation): the person is asked, and an approval runs it with their answer", async () => {
    const seen: unknown[] = [];
    const { app, events } = await probeApp((context) => {
      if (!context!.toolConfirmation) {
        context!.requestConfirmation({ hint: "really?" });
        return { pending: true };
      }
      seen.push(context!.toolConfirmation);
      return { done: context!.toolConfirmation.confirmed };
    });
    const [question] = interruptsOf(events);
    expect(question?.toolCallId).toBe(callNamed(events, "probe"));
    expect(resultOf(events, question!.toolCallId)).toBeUndefined();
    const second = await app.run({ threadId: "t1", runId: "r2", resume: [approve(question!.id, "go")] });
    expect(JSON.parse(resultOf(second, question!.toolCallId)!)).toEqual({ done: true });
    expect(seen).toMatchObject([{ confirmed: true, payload: { approved: true, comment: "go" } }]);
  });

  it("is still running when the run is cancelled: the thread keeps what it returned, not that it never ran", async () => {
    let started!: () => void;
    const going = new Promise<void>((resolve) => (started = resolve));
    const ran: string[] = [];
    const slow = new FunctionTool({
      name: "slow_write",
      description: "Writes, slowly.",
      parameters: z.object({}),
      execute: async () => {
        started();
        await new Promise((resolve) => setTimeout(resolve, 150));
        ran.push("slow_write");
        return { written: true };
      },
    });
    const model = createScriptedLlm([{ toolCalls: [{ toolName: "slow_write", input: {} }] }, { text: "Written." }]);
    const app = await createAdkApp(assistantAgent(model, [slow]));
    const response = app.post({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "write")] });
    await going;
    await app.cancel("r1");
    await (await response).text();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ran).toEqual(["slow_write"]);
    const stored = await app.store.getMessages("t1");
    const result = stored.find((message) => message.role === "tool");
    expect(result?.content).not.toContain("cancelled before this call ran");
  });

  it("has an after-tool callback that throws on a later call: the calls that ran keep their results", async () => {
    const ran: string[] = [];
    const step = new FunctionTool({
      name: "step",
      description: "A step.",
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => {
        ran.push(`step(${n})`);
        return { done: n };
      },
    });
    const model = createScriptedLlm([
      {
        toolCalls: [
          { toolName: "step", input: { n: 1 } },
          { toolName: "step", input: { n: 2 } },
        ],
      },
    ]);
    const agent = assistantAgent(model, [step], {
      afterToolCallback: ({ args }) => {
        if ((args as { n: number }).n === 2) throw new Error("audit log unavailable");
        return undefined;
      },
    });
    const app = await createAdkApp(agent);
    const events = await app.run({ threadId: "t1", runId: "r1", messages: [userMessage("u1", "two steps")] });
    expect(ran).toEqual(["step(1)", "step(2)"]);
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR" });
    const first = ofType(events, "TOOL_CALL_START")[0]!.toolCallId as string;
    expect(JSON.parse(resultOf(events, first)!)).toEqual({ done: 1 });
  });

  it("sets skipSummarization: the run ends on the tool's result without calling the model again", async () => {
    const { model, events } = await probeApp((context) => {
      context!.actions.skipSummarization = true;
      return { shown: "as is" };
    });
    expect(JSON.parse(resultOf(events, callNamed(events, "probe"))!)).toEqual({ shown: "as is" });
    expect(finished(events)).toEqual({ type: "success" });
    expect(model.requests).toHaveLength(1);
  });

  it("sets escalate: the run still ends cleanly, with the tool's result kept", async () => {
    const { events } = await probeApp((context) => {
      context!.actions.escalate = true;
      return { escalated: true };
    });
    expect(JSON.parse(resultOf(events, callNamed(events, "probe"))!)).toEqual({ escalated: true });
    expect(finished(events)).toEqual({ type: "success" });
  });

  it("transfers to an agent that is not there: the run ends with an error, and the tool's result is kept", async () => {
    const { app, events } = await probeApp((context) => {
      context!.actions.transferToAgent = "billing";
      return { transferred: true };
    });
    expect(JSON.parse(resultOf(events, callNamed(events, "probe"))!)).toEqual({ transferred: true });
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR" });
    const stored = await app.store.getMessages("t1");
    expect(stored.some((message) => message.role === "tool" && String(message.content).includes("transferred"))).toBe(true);
  });

  // ADK turns whatever fails in its flow (a tool's transfer, an unknown agent) into the same error event a
  // failing model yields: the model wrapper knows whether the model itself failed.
  it("transfers to an agent that is not there: the error does not blame the model provider", async () => {
    const { events } = await probeApp((context) => {
      context!.actions.transferToAgent = "billing";
      return { transferred: true };
    });
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR" });
    expect(events.at(-1)).toMatchObject({ code: "upstream_error", message: expect.stringContaining("The ADK agent failed") });
  });

  it("transfers to itself: the agent runs again inside the same step, and the run still ends once", async () => {
    const { events } = await probeApp((context) => {
      context!.actions.transferToAgent = "assistant";
      return { transferred: true };
    });
    expect(ofType(events, "RUN_FINISHED").length + ofType(events, "RUN_ERROR").length).toBe(1);
  });
});
