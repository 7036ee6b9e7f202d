import type { Message, ResumeEntry } from "@ag-ui/core";
import { defineTool } from "@tether-agent/tether/server";
import { createMemoryRunStore, type BeginRun, type RunStore } from "@tether-agent/tether/store";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createScriptedModel, parseSseFrames, type ScriptedStep } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { gatedModel } from "../helpers/gated-model.ts";
import { spoken } from "../helpers/run-events.ts";
import { createScriptedApp, openPanel } from "../helpers/scripted-app.ts";

/**
 * The same request posted twice at the same moment (two tabs, a retry racing
 * the first) is one request: the second follows the run the first started,
 * live, and ends with the same events; nothing runs twice. Anything else that
 * comes while the run is going is refused with 409 run_in_progress.
 */

const THREAD = "dup";
/** What the page declares with every run. */
const tools = [toAgUiTool(openPanel)];
const outcome = (stage = "displayed") => JSON.stringify({ status: "succeeded", stage });
const user = (id: string, content: string): Message => ({ id, role: "user", content });
const tool = (id: string, toolCallId: string, content = outcome()): Message => ({ id, role: "tool", toolCallId, content });
const read = async (response: Response | Promise<Response>) => {
  const answered = await response;
  return { status: answered.status, repeatOf: answered.headers.get("x-tether-repeat-of"), body: await answered.text() };
};
const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

/** A store whose beginRun waits, for the runs named, until `waitFor(runId)` lets it go on. */
function heldBegins(store: RunStore, waitFor: (runId: string) => Promise<void> | undefined): RunStore {
  return {
    ...store,
    async beginRun(begin: BeginRun) {
      await waitFor(begin.run.runId);
      return store.beginRun(begin);
    },
  };
}

/** A thread whose first run left a browser call (openPanel) pending; the model's next call is held on demand. */
async function pendingCall(options: { store?: RunStore } = {}) {
  const scripted = createScriptedModel([{ toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] }, { text: "Billing is open." }]);
  const gate = gatedModel(scripted);
  const app = await createScriptedApp([], { agent: { model: gate.model }, ...(options.store ? { store: options.store } : {}) });
  const first = await app.run({ threadId: THREAD, runId: "r1", messages: [user("u1", "open billing")], tools });
  const callId = first.at(-1)!.data.outcome.pendingToolCallIds[0] as string;
  const history = await app.store.getMessages(THREAD);
  const answer = (runId: string, messages: Message[]) => app.post({ threadId: THREAD, runId, messages, tools });
  return { app, scripted, gate, callId, history, answer };
}

describe("the same browser outcome posted twice at once", () => {
  it.each([
    ["the same message", "t1"],
    ["the same outcome under a new message id", "t1-again"],
  ])("follows the run the first started, live, with the same events (%s): one run, one model call", async (_, secondId) => {
    const { app, scripted, gate, callId, history, answer } = await pendingCall();
    const held = gate.hold();
    const first = answer("r2", [...history, tool("t1", callId)]);
    await held.entered;
    // The first run is live, waiting on its model, when the second comes.
    const second = await answer("r3", [...history, tool(secondId, callId)]);
    expect(await app.store.getRun("r2")).toMatchObject({ status: "running" });
    expect(second.status).toBe(200);
    expect(second.headers.get("x-tether-repeat-of")).toBe("r2");
    held.release();

    const [one, two] = [await read(first), await read(second)];
    expect(one).toMatchObject({ status: 200, repeatOf: null });
    expect(two.body).toBe(one.body);
    const frames = parseSseFrames(two.body);
    expect(frames.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", runId: "r2", outcome: { type: "success" } });
    expect(spoken(frames.map((frame) => frame.data))).toBe("Billing is open.");
    expect((await app.store.listRuns(THREAD)).map((run) => run.runId)).toEqual(["r1", "r2"]);
    expect(scripted.calls).toHaveLength(2);
    expect((await app.store.getMessages(THREAD)).filter((message) => message.role === "tool")).toHaveLength(1);
  });

  it("joins the run also when both requests passed their checks before either was stored", async () => {
    let arrived!: () => void;
    const both = new Promise<void>((resolve) => (arrived = resolve));
    let count = 0;
    // r2 and r3 both wait at the store's door until both are there: then they really race for the thread.
    const store = heldBegins(createMemoryRunStore(), (runId) => {
      if (runId !== "r2" && runId !== "r3") return undefined;
      if (++count === 2) arrived();
      return both;
    });
    const { app, scripted, gate, callId, history, answer } = await pendingCall({ store });
    const held = gate.hold();
    const responses = [answer("r2", [...history, tool("t1", callId)]), answer("r3", [...history, tool("t1", callId)])];
    await held.entered;
    held.release();
    const [a, b] = await Promise.all(responses.map(read));

    expect([a!.status, b!.status]).toEqual([200, 200]);
    expect(b!.body).toBe(a!.body);
    const ran = parseSseFrames(a!.body)[0]!.data.runId as string;
    expect([a!.repeatOf, b!.repeatOf].sort()).toEqual([ran, null].sort());
    expect((await app.store.listRuns(THREAD)).map((run) => run.runId)).toEqual(["r1", ran]);
    expect(scripted.calls).toHaveLength(2);
  });

  it("answers with the first run, never a second, when that run ended between the second's checks and its write", async () => {
    let firstDone!: () => void;
    const done = new Promise<void>((resolve) => (firstDone = resolve));
    let secondChecked!: () => void;
    const checked = new Promise<void>((resolve) => (secondChecked = resolve));
    // r3 is checked while the call is still pending, then waits to be written until r2 has ended.
    const store = heldBegins(createMemoryRunStore(), (runId) => {
      if (runId === "r2") return checked;
      if (runId !== "r3") return undefined;
      secondChecked();
      return done;
    });
    const { app, scripted, callId, history, answer } = await pendingCall({ store });
    const second = answer("r3", [...history, tool("t1-again", callId)]);
    const first = await read(answer("r2", [...history, tool("t1", callId)]));
    firstDone();

    expect(first.status).toBe(200);
    expect(await read(second)).toEqual({ status: 200, repeatOf: "r2", body: first.body });
    expect((await app.store.listRuns(THREAD)).map((run) => run.runId)).toEqual(["r1", "r2"]);
    expect(scripted.calls).toHaveLength(2);
  });

  it("still refuses with 409 run_in_progress what is not the same request: another outcome for the call, or a new message", async () => {
    const { app, scripted, gate, callId, history, answer } = await pendingCall();
    const held = gate.hold();
    const first = answer("r2", [...history, tool("t1", callId)]);
    await held.entered;

    const other = await answer("r3", [...history, tool("t1-other", callId, outcome("switched"))]);
    expect(other.status).toBe(409);
    expect(await errorCode(other)).toBe("run_in_progress");
    const moved = await answer("r4", [...history, tool("t1", callId), user("u2", "and the list?")]);
    expect(moved.status).toBe(409);
    expect(await errorCode(moved)).toBe("run_in_progress");
    // The thread as it was before the outcome, with nothing new: not that run's request either.
    const older = await answer("r5", history);
    expect(older.status).toBe(409);
    expect(await errorCode(older)).toBe("run_in_progress");

    held.release();
    expect((await read(first)).status).toBe(200);
    // Once the run has ended, the other outcome is refused as a call answered otherwise.
    const after = await answer("r6", [...history, tool("t1-other", callId, outcome("switched"))]);
    expect(after.status).toBe(409);
    expect(await errorCode(after)).toBe("tool_result_conflict");
    expect((await app.store.listRuns(THREAD)).map((run) => run.runId)).toEqual(["r1", "r2"]);
    expect(scripted.calls).toHaveLength(2);
  });
});

describe("the same answer to an approval posted twice at once", () => {
  it("follows the run that acts on it: the tool executes once, both streams are the same", async () => {
    const executed: number[] = [];
    const transfer = defineTool({
      name: "transfer",
      description: "Moves money.",
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      approvalMessage: ({ amount }) => `Transfer ${amount}?`,
      execute: ({ amount }) => {
        executed.push(amount);
        return { transferred: amount };
      },
    });
    const steps: ScriptedStep[] = [{ toolCalls: [{ toolName: "transfer", input: { amount: 10 } }] }, { text: "Transferred." }];
    const scripted = createScriptedModel(steps);
    const gate = gatedModel(scripted);
    const app = await createScriptedApp([], { tools: [transfer], agent: { model: gate.model } });
    const asked = await app.run({ threadId: THREAD, runId: "r1", messages: [user("u1", "pay 10")] });
    const [interrupt] = asked.at(-1)!.data.outcome.interrupts as Array<{ id: string }>;
    const history = await app.store.getMessages(THREAD);
    const approve: ResumeEntry[] = [{ interruptId: interrupt!.id, status: "resolved", payload: { approved: true } }];
    const resume = (runId: string, entries = approve) => app.post({ threadId: THREAD, runId, messages: history, resume: entries });

    const held = gate.hold();
    const first = resume("r2");
    await held.entered;
    expect(executed).toEqual([10]);
    const second = await resume("r3");
    expect(second.headers.get("x-tether-repeat-of")).toBe("r2");
    // Another answer to the same approval is not the same request.
    const changed = await resume("r4", [{ interruptId: interrupt!.id, status: "resolved", payload: { approved: false } }]);
    expect(changed.status).toBe(409);
    expect(await errorCode(changed)).toBe("run_in_progress");
    held.release();

    const [one, two] = [await read(first), await read(second)];
    expect(one.status).toBe(200);
    expect(two).toEqual({ status: 200, repeatOf: "r2", body: one.body });
    expect(spoken(parseSseFrames(one.body).map((frame) => frame.data))).toBe("Transferred.");
    expect(executed).toEqual([10]);
    expect(scripted.calls).toHaveLength(2);
    expect((await app.store.listRuns(THREAD)).map((run) => run.runId)).toEqual(["r1", "r2"]);
  });
});
