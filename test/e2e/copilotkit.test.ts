import { toAgUiTool } from "@tether-agent/tether/protocol";
import { EventSchemas, EventType, HttpAgent, verifyEvents, type BaseEvent, type Message } from "ag-ui-client-0.0";
import type { Browser, Page } from "playwright-core";
import { from, lastValueFrom, toArray } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { launchChromium } from "./browser.ts";
import {
  ask,
  installCopilotKitFixture,
  recordRuns,
  removeCopilotKitFixture,
  spoken,
  startCopilotKitRuntime,
  type CopilotKitRuntime,
  type PageRun,
} from "./copilotkit-fixture.ts";

/**
 * CopilotKit attaches to a Tether agent as it is: CopilotKit's own runtime (1.75.0, v2) serves one plain
 * AG-UI HttpAgent pointed at the demo's Workdesk agent with ?compat=ag-ui-0.0, and CopilotKit's own React
 * frontend (react-core 1.74.0: provider, chat, useFrontendTool) runs the browser tool. Both come from
 * test/fixtures/copilotkit, installed from its lockfile into a temporary folder outside the repo.
 */
const tools = [toAgUiTool(navigateToScreen)];

interface Turn {
  events: BaseEvent[];
  failed?: Error;
}

/** One run through CopilotKit's runtime with the AG-UI 0.0.59 client (what CopilotKit's frontend is built on). */
async function turn(agent: HttpAgent): Promise<Turn> {
  const seen: Turn = { events: [] };
  await agent
    .runAgent({ tools }, { onEvent: ({ event }) => void seen.events.push(event), onRunFailed: ({ error }) => void (seen.failed = error) })
    .catch((error: Error) => (seen.failed ??= error));
  return seen;
}

/** Every event the runtime forwarded passes the 0.0.x schemas one by one, and their order passes verifyEvents. */
async function expectValid0_0(events: BaseEvent[]): Promise<void> {
  for (const event of events) EventSchemas.parse(event);
  await expect(lastValueFrom(from(events).pipe(verifyEvents(false), toArray()))).resolves.toHaveLength(events.length);
}

const lastText = (messages: Message[]) => (messages.filter((message) => message.role === "assistant" && message.content).at(-1)?.content as string) ?? "";

describe("CopilotKit's runtime and frontend on a Tether agent", () => {
  let work: string;
  let server: DemoServer;
  let kim: CopilotKitRuntime;
  const runtimes: CopilotKitRuntime[] = [];
  let browser: Browser | undefined;
  const runtimeAgent = (runtime: CopilotKitRuntime, threadId: string) => new HttpAgent({ url: `${runtime.url}/api/copilotkit/agent/tether/run`, threadId });
  const start = async (env: Record<string, string>) => {
    const runtime = await startCopilotKitRuntime(work, { TETHER_URL: server.url, ...env });
    runtimes.push(runtime);
    return runtime;
  };

  beforeAll(async () => {
    work = await installCopilotKitFixture();
    server = await startDemoServer();
    kim = await start({ TETHER_TOKEN: server.token("kim") });
  }, 900_000);

  afterAll(async () => {
    for (const runtime of runtimes) runtime.process.kill();
    await browser?.close();
    await server?.close();
    removeCopilotKitFixture(work);
  }, 300_000);

  describe("over HTTP: plain RunAgentInput to CopilotKit's runtime", () => {
    it("plays the two-turn story: the browser call is left pending, then the outcome brings the confirmation", async () => {
      const agent = runtimeAgent(kim, "ck-story-1");
      agent.addMessage({ id: "ck-story-1-u1", role: "user", content: "open the work request list" });
      const first = await turn(agent);
      expect(first.failed).toBeUndefined();
      await expectValid0_0(first.events);
      const navigate = first.events.find(
        (event) => event.type === EventType.TOOL_CALL_START && (event as { toolCallName?: string }).toolCallName === "navigateToScreen",
      ) as (BaseEvent & { toolCallId: string }) | undefined;
      expect(navigate).toBeDefined();
      // The pending call travels as the compat CUSTOM event; the run ends as a plain 0.0.x success, no result for the call.
      expect(first.events).toContainEqual(
        expect.objectContaining({ type: EventType.CUSTOM, name: "tether.pending_tool_calls", value: { toolCallIds: [navigate!.toolCallId] } }),
      );
      expect(first.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED });
      expect(agent.messages.some((message) => message.role === "tool" && message.toolCallId === navigate!.toolCallId)).toBe(false);
      expect(lastText(agent.messages)).not.toMatch(/open now/);

      agent.addMessage({
        id: "ck-story-1-t1",
        role: "tool",
        toolCallId: navigate!.toolCallId,
        content: JSON.stringify({ status: "succeeded", stage: "displayed" }),
      });
      const second = await turn(agent);
      expect(second.failed).toBeUndefined();
      await expectValid0_0(second.events);
      expect(second.events.some((event) => event.type === EventType.RUN_ERROR)).toBe(false);
      expect(lastText(agent.messages)).toBe("Work request list is open now.");
    });

    it("an approval run (lee closing R-1042) ends with its interrupt", async () => {
      const lee = await start({ TETHER_TOKEN: server.token("lee") });
      const agent = runtimeAgent(lee, "ck-approve-1");
      agent.addMessage({ id: "ck-approve-1-u1", role: "user", content: "close R-1042 as fixed" });
      const asked = await turn(agent);
      expect(asked.failed).toBeUndefined();
      await expectValid0_0(asked.events);
      expect(asked.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "interrupt", interrupts: [{ reason: "tool_approval" }] } });
    });

    it("fails without ?compat=ag-ui-0.0: CopilotKit's runtime cannot pass on Tether's 1.0 outcome", async () => {
      const plain = await start({ TETHER_TOKEN: server.token("kim"), TETHER_COMPAT: "" });
      const agent = runtimeAgent(plain, "ck-plain-1");
      agent.addMessage({ id: "ck-plain-1-u1", role: "user", content: "open the work request list" });
      const first = await turn(agent);
      const error = first.events.find((event) => event.type === EventType.RUN_ERROR) as { message?: string } | undefined;
      expect(String(first.failed ?? error?.message)).toMatch(/pendingToolCallIds|unrecognized_keys/);
    });

    // CopilotKit's frontend sends navigateToScreen without any `additionalProperties` (core's
    // stripAdditionalProperties) and zod 3's record without `propertyNames`: the strict allow-list takes
    // both as the no-ops they are (src/protocol/schema-diff.ts).
    it("Tether accepts navigateToScreen as CopilotKit's frontend declares it", async () => {
      const declared = JSON.parse(JSON.stringify(tools, (key, value) => (key === "additionalProperties" || key === "propertyNames" ? undefined : value)));
      const response = await fetch(`${server.url}/api/agents/workdesk/run?compat=ag-ui-0.0`, {
        method: "POST",
        headers: { Authorization: `Bearer ${server.token("kim")}`, "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify({
          threadId: "ck-declared-1",
          runId: "ck-declared-1-r1",
          messages: [{ id: "ck-declared-1-u1", role: "user", content: "open the work request list" }],
          tools: declared,
          context: [],
          state: {},
          forwardedProps: {},
        }),
      });
      expect(await response.text()).not.toMatch(/tool_schema_mismatch/);
      expect(response.status).toBe(200);
    });
  });

  describe("in Chromium: CopilotKit's React frontend", () => {
    /** The page with every run request it sends and every run response it gets, in order. */
    async function openPage(): Promise<{ page: Page; runs: PageRun[]; errors: string[] }> {
      browser ??= await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      const runs = recordRuns(page, "tether");
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(kim.url);
      await expect.poll(() => page.getByTestId("screen").textContent()).toBe("Home");
      return { page, runs, errors };
    }
    const workdesk = (page: Page) =>
      page.evaluate(
        () => (window as unknown as { __workdesk: { opened: string[]; outcomes: Array<{ screenId: string; outcome: { status: string } }> } }).__workdesk,
      );

    it("opens the screen exactly once, sends the outcome back, and the confirmation comes only after it", async () => {
      const { page, runs, errors } = await openPage();
      await ask(page, "open the work request list");
      await expect.poll(() => page.getByText("Work request list is open now.").count(), { timeout: 30_000 }).toBe(1);
      expect(await page.getByTestId("screen").textContent()).toBe("Work request list");

      // Two runs: the question, then CopilotKit's follow-up carrying the tool result; nothing more after a pause.
      await page.waitForTimeout(1_000);
      expect(runs).toHaveLength(2);
      expect((await workdesk(page)).opened).toEqual(["MNU-3120"]);
      const [first, followUp] = [await runs[0]!.response, JSON.parse(runs[1]!.request) as { messages: Message[] }];
      // The first run asks for the screen and says nothing about it being open.
      expect(first).toContain('"toolCallName":"navigateToScreen"');
      expect(spoken(first)).not.toMatch(/open now/);
      // The follow-up's last message is the browser's outcome for that call, and only its answer confirms.
      const outcome = followUp.messages.at(-1)!;
      expect(outcome).toMatchObject({ role: "tool", content: JSON.stringify({ status: "succeeded", stage: "displayed" }) });
      const navigateCall = followUp.messages
        .flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))
        .find((call) => call.function.name === "navigateToScreen");
      expect((outcome as { toolCallId: string }).toolCallId).toBe(navigateCall!.id);
      expect(spoken(await runs[1]!.response)).toBe("Work request list is open now.");
      expect(errors).toEqual([]);
    });

    it("a screen the page refuses is reported as refused, never as open", async () => {
      const { page, runs } = await openPage();
      // "take me to R-1042" asks for the work request detail (MNU-3130), which this page refuses (access_denied).
      await ask(page, "take me to R-1042");
      await expect.poll(() => page.getByText(/couldn't open Work request detail/).count(), { timeout: 30_000 }).toBe(1);
      expect(await page.getByText(/doesn't have access/).count()).toBe(1);
      expect(await page.getByText(/is open now/).count()).toBe(0);
      expect(await page.getByTestId("screen").textContent()).toBe("Home");
      const { opened, outcomes } = await workdesk(page);
      expect(opened).toEqual([]);
      expect(outcomes).toEqual([{ screenId: "MNU-3130", outcome: expect.objectContaining({ status: "failed", reason: "access_denied" }) }]);
      await page.waitForTimeout(1_000);
      expect(runs).toHaveLength(2);
    });
  });

  it("what CopilotKit forwards on its follow-up: the thread as the stream built it, Tether's ids kept, plus the browser's tool message", () => {
    // Read from RUN_LOG: the runtime passes the page's RunAgentInput through unchanged (and no parentRunId or
    // Tether trigger), and Tether's server-mode history accepts it as it accepts its own client's.
    const followUps = kim.forwarded().filter((input) => input.messages.at(-1)?.role === "tool");
    expect(followUps.length).toBeGreaterThan(0);
    for (const input of followUps) {
      expect(input.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
      expect(input.messages[1]!.id).toMatch(/^msg_/);
      expect(input.tools.map((tool) => tool.name)).toEqual(["navigateToScreen"]);
    }
  });
});
