import { defineTool } from "@tether-agent/tether/server";
import { createScriptedModel, readSseFrames } from "@tether-agent/tether/testing";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { HOLD_REPLY, heldModel } from "./helpers/held-model.ts";
import { losableStore } from "./helpers/losable-store.ts";
import { createScriptedApp, types } from "./helpers/scripted-app.ts";

const input = (runId: string) => ({ threadId: "t1", runId, messages: [{ id: `${runId}-u1`, role: "user" as const, content: "tell me" }] });

describe("an instance that loses its hold on a shared store", () => {
  it("stops its runs with RUN_ERROR instance_lost even while the database is away, and stores that end once it answers", async () => {
    const shared = losableStore();
    const held = heldModel(createScriptedModel([{ text: HOLD_REPLY }, { text: "Back." }]));
    const app = await createScriptedApp([], { store: shared.store, agent: { model: held.model } });
    try {
      const release = held.hold();
      const stream = readSseFrames(await app.post(input("r1")));
      await stream.until(10);

      shared.lose({ down: true });
      const seen = await stream.all();
      release();

      expect(seen.at(-1)!.data).toMatchObject({
        type: "RUN_ERROR",
        code: "instance_lost",
        message: expect.stringContaining("This server lost its hold on the database while the run was in progress"),
      });
      expect((await shared.store.getRun("r1"))?.status).toBe("running");

      shared.up();
      await vi.waitFor(async () => expect(await shared.store.getRun("r1")).toMatchObject({ status: "error", error: { code: "instance_lost" } }), {
        timeout: 15_000,
        interval: 50,
      });
      expect(types(await app.run(input("r2"))).at(-1)).toBe("RUN_FINISHED");
    } finally {
      shared.up();
      await app.tether.close();
    }
  });

  it("stops a run whose step the store refuses as ended elsewhere: RUN_ERROR run_not_active, no more model calls or tools, the other end kept", async () => {
    const shared = losableStore();
    const executed: string[] = [];
    const tool = (name: string) =>
      defineTool({
        name,
        description: `Looks ${name} up.`,
        parameters: z.object({}),
        execute: async (_args, context) => {
          executed.push(name);
          // Meanwhile another instance took this one for gone and ended the run.
          await shared.store.endLostRun(context.runId, {
            code: "instance_lost",
            status: "error",
            message: "The server stopped while this run was in progress.",
          });
          return { found: true };
        },
      });
    const app = await createScriptedApp(
      [{ toolCalls: [{ toolName: "first", input: {} }] }, { toolCalls: [{ toolName: "second", input: {} }] }, { text: "Done." }],
      { store: shared.store, tools: [tool("first"), tool("second")] },
    );
    try {
      const seen = await app.run(input("r1"));

      expect(seen.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "run_not_active", message: expect.stringContaining("already ended") });
      expect(executed).toEqual(["first"]);
      expect(app.model.calls).toHaveLength(1);
      expect(await shared.store.getRun("r1")).toMatchObject({ status: "error", error: { code: "instance_lost" } });
      // The step that came too late is not in the thread: only what the run began with.
      expect((await shared.store.getMessages("t1")).map((message) => message.id)).toEqual(["r1-u1"]);
    } finally {
      await app.tether.close();
    }
  });
});
