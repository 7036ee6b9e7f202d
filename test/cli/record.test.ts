import { execFile } from "node:child_process";
import { createServer } from "node:net";
import { promisify } from "node:util";
import { buildResumeArray, type BaseEvent, type HttpAgent, type Interrupt } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { TETHER_COMMAND } from "../helpers/tether-command.ts";

let server: DemoServer;
const THREAD = "cli-record";

async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0]): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await agent.runAgent({ tools: [toAgUiTool(navigateToScreen)], ...parameters }, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

// Lee asks to close R-1042 (run cli-ask ends waiting for approval), then approves it (run cli-answer),
// saying why the run exists as Tether's client does (forwardedProps.tether.trigger): that is what links the two.
beforeAll(async () => {
  server = await startDemoServer();
  const agent = server.agent("lee", THREAD);
  agent.addMessage({ id: `${THREAD}-u1`, role: "user", content: "close R-1042 as fixed" });
  await run(agent, { runId: "cli-ask" });
  const [interrupt] = agent.pendingInterrupts as [Interrupt];
  await run(agent, {
    runId: "cli-answer",
    resume: buildResumeArray([interrupt], { [interrupt.id]: { status: "resolved", payload: { approved: true } } }),
    forwardedProps: { tether: { trigger: { kind: "resume", parentRunId: "cli-ask", interruptIds: [interrupt.id] } } },
  });
});
afterAll(async () => {
  await server.close();
});

/** The real command in a child process (asynchronously: the demo server answers on this process's event loop). */
async function tether(args: string[], env: Record<string, string> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...TETHER_COMMAND, "record", ...args], {
      encoding: "utf8",
      env: { ...process.env, TETHER_TOKEN: "", TETHER_API: "", ...env },
    });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout: string; stderr: string };
    if (typeof failed.code !== "number") throw error;
    return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const api = () => `${server.url}/api`;

describe("tether record", () => {
  it("prints the run's timeline: the trigger, the model call, the approval asked and how the next run answered it", async () => {
    const result = await tether(["cli-ask", "--api", api(), "--token", server.token("lee")]);
    expect(result).toMatchObject({ status: 0, stderr: "" });
    expect(result.stdout).toMatch(/^Run cli-ask · agent workdesk · thread cli-record · user lee\n/);
    expect(result.stdout).toContain("Started by\n  a user message");
    expect(result.stdout).toContain("next runs: cli-answer");
    expect(result.stdout).toMatch(/tool closeWorkRequest \[server\] \S+ \{"requestId":"R-1042","resolution":"fixed"\} → waits for approval/);
    expect(result.stdout).toMatch(/Approvals\n {2}\S+: closeWorkRequest .* → approved \(run cli-answer\)/);
    expect(result.stdout).toMatch(/Events sent \(\d+, last seq \d+\)\n +1 RUN_STARTED/);
    expect(result.stdout).toContain("Outcome: interrupt");
  });

  it("follows the chain back: the answering run names the approval answer and its previous run", async () => {
    const result = await tether(["cli-answer", "--token", server.token("lee")], { TETHER_API: api() });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Started by\n {2}an approval answer: \S+ approved\n {2}previous run: cli-ask/);
    expect(result.stdout).toMatch(/text: "R-1042 is closed \(resolution: fixed\)\."/);
  });

  it("prints the record as the server keeps it with --json, every event in it", async () => {
    const result = await tether(["--json", "cli-ask", "--api", api()], { TETHER_TOKEN: server.token("lee") });
    expect(result.status).toBe(0);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({ format: 2, runId: "cli-ask", threadId: THREAD, userId: "lee", complete: true, start: { nextRunIds: ["cli-answer"] } });
    expect(record.output.events).toHaveLength(record.output.eventCount);
    expect(record.output.next).toBeUndefined();
  });

  it("says a token is needed when none is given (exit 1, unauthenticated)", async () => {
    const result = await tether(["cli-ask", "--api", api()]);
    expect(result).toMatchObject({ status: 1, stdout: "" });
    expect(result.stderr).toBe("tether record: unauthenticated: The server needs a token to read run records. Pass --token <token> or set TETHER_TOKEN.\n");
  });

  it("says a wrong token is wrong", async () => {
    const result = await tether(["cli-ask", "--api", api(), "--token", "v1.not.a-token"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^tether record: unauthenticated: The server refused the token/);
  });

  it("answers another user's run like a missing one: no such run, or not yours", async () => {
    const theirs = await tether(["cli-ask", "--api", api(), "--token", server.token("park")]);
    const missing = await tether(["no-such-run", "--api", api(), "--token", server.token("lee")]);
    expect(theirs.status).toBe(1);
    expect(theirs.stderr).toMatch(/^tether record: (forbidden|run_not_found): No run cli-ask \(or it is not yours\)/);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^tether record: (run_not_found|not_found): /);
  });

  it("says the server isn't reachable at the URL when nothing listens there (exit 2)", async () => {
    const port = await freePort();
    const result = await tether(["cli-ask", "--api", `http://127.0.0.1:${port}/api`, "--token", "t"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`^tether record: config_invalid: The server isn't reachable at http://127\\.0\\.0\\.1:${port}/api \\(ECONNREFUSED\\)`),
    );
  });

  it("asks for the run id, and refuses an unknown option (exit 2)", async () => {
    expect(await tether([])).toMatchObject({ status: 2, stderr: expect.stringContaining("Name the run: tether record <runId>.") });
    expect(await tether(["cli-ask", "--colour", "red"])).toMatchObject({ status: 2, stderr: expect.stringContaining("Unknown option --colour.") });
  });

  it("refuses --api or --token given without a value rather than quietly using the environment's (exit 2)", async () => {
    const env = { TETHER_TOKEN: server.token("lee"), TETHER_API: `${server.url}/api` };
    expect(await tether(["cli-ask", "--token"], env)).toMatchObject({ status: 2, stdout: "", stderr: expect.stringContaining("--token needs a value") });
    expect(await tether(["cli-ask", "--token", "--json"], env)).toMatchObject({
      status: 2,
      stdout: "",
      stderr: expect.stringContaining("--token needs a value"),
    });
    expect(await tether(["cli-ask", "--api"], env)).toMatchObject({ status: 2, stdout: "", stderr: expect.stringContaining("--api needs a value") });
  });
});

/** A loopback port nothing listens on (taken, then released). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
