import { createAgentSession, type BrowserToolHandler } from "@tether-agent/tether/client";
import { defineBrowserTool } from "@tether-agent/tether/protocol";
import { createMemoryStorage } from "@tether-agent/tether/testing";
import { describe, expect, it, vi } from "vitest";
import { listen } from "@tether-agent/tether/node";
import { createScriptedApp, openPanel } from "../helpers/scripted-app.ts";

const showCards = defineBrowserTool({
  name: "showCards",
  kind: "render-only",
  description: "Shows recipe cards.",
  parameters: { type: "object", properties: { ids: { type: "array", items: { type: "string" } } }, required: ["ids"] },
});
const confirmedPanel = { ...openPanel, needsApproval: true };

async function served(app: Awaited<ReturnType<typeof createScriptedApp>>) {
  const server = await listen(app.tether.app, { port: 0, host: "127.0.0.1" });
  const session = (threadId: string) =>
    createAgentSession({ api: `${server.url}/api`, agentId: "test", threadId, headers: { "x-user": "kim" }, storage: createMemoryStorage(), drift: "throw" });
  return { server, session };
}

describe("browser tool kinds in a session", () => {
  it("keeps a render-only tool's outcome as bookkeeping for the next run, and reports it, without a continuation", async () => {
    const app = await createScriptedApp([{ toolCalls: [{ toolName: "showCards", input: { ids: ["r-204"] } }] }, { text: "Enjoy." }], {
      browserTools: [showCards],
    });
    const { server, session } = await served(app);
    try {
      const execute = vi.fn<BrowserToolHandler["execute"]>(() => ({ status: "succeeded", stage: "displayed", message: "Rendered 1 card." }));
      const s = session("render-1");
      s.registerTool({ spec: showCards, execute });
      await s.send("something with rice");
      expect(execute).toHaveBeenCalledTimes(1);
      expect(app.model.calls).toHaveLength(1); // no continuation run: the cards are the answer
      const runs = await app.store.listRuns("render-1");
      expect(runs).toHaveLength(1);
      await expect
        .poll(async () => (await app.store.listReports(runs[0]!.runId)).map((entry) => entry.report))
        .toEqual([
          {
            kind: "tool-outcome",
            toolCallId: expect.any(String),
            toolName: "showCards",
            outcome: { status: "succeeded", stage: "displayed", message: "Rendered 1 card." },
          },
        ]);
      // The next run carries the tool message, and the server accepts it as the call's answer.
      await s.send("thanks");
      expect(s.getState().error).toBeUndefined();
      expect(JSON.stringify(app.model.calls[1]!.prompt)).toContain("Rendered 1 card.");
      expect(await app.store.getPendingToolCalls("render-1")).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("sends the page's context with each run, read as the run starts", async () => {
    const app = await createScriptedApp([{ text: "One." }, { text: "Two." }]);
    const { server } = await served(app);
    try {
      let step = 1;
      const s = createAgentSession({
        api: `${server.url}/api`,
        agentId: "test",
        threadId: "context-1",
        headers: { "x-user": "kim" },
        storage: createMemoryStorage(),
        context: () => [{ description: "On screen", value: `recipe r-204, step ${step} of 5` }],
      });
      await s.send("first");
      step = 2;
      await s.send("second");
      const systemOf = (index: number) => JSON.stringify(app.model.calls[index]!.prompt.filter((message) => message.role === "system"));
      expect(systemOf(0)).toContain("On screen: recipe r-204, step 1 of 5");
      expect(systemOf(1)).toContain("On screen: recipe r-204, step 2 of 5");
    } finally {
      await server.close();
    }
  });

  it("holds a browser call that needs approval, and performs it once the approval comes", async () => {
    const app = await createScriptedApp([{ toolCalls: [{ toolName: "openPanel", input: { panel: "billing" } }] }, { text: "Billing is open." }], {
      browserTools: [confirmedPanel],
    });
    const { server, session } = await served(app);
    try {
      const execute = vi.fn<BrowserToolHandler["execute"]>(() => ({ status: "succeeded", stage: "displayed" }));
      const s = session("approve-browser");
      s.registerTool({ spec: openPanel, execute });
      await s.send("open billing");
      expect(execute).not.toHaveBeenCalled();
      const [interrupt] = s.getState().interrupts;
      expect(interrupt).toMatchObject({ reason: "tool_approval", metadata: { tether: { toolName: "openPanel", arguments: { panel: "billing" } } } });
      expect(s.getState().activities.at(-1)).toMatchObject({ toolName: "openPanel", status: "awaiting" });

      await s.answer(interrupt!.id, { approved: true });
      expect(execute).toHaveBeenCalledTimes(1);
      expect(execute.mock.calls[0]![0]).toEqual({ panel: "billing" });
      expect(s.getState().activities.at(-1)).toMatchObject({ toolName: "openPanel", status: "succeeded" });
      expect(s.getState().messages.at(-1)).toMatchObject({ role: "assistant", content: "Billing is open." });
    } finally {
      await server.close();
    }
  });
});
