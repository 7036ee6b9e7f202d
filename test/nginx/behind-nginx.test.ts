import type { ResumeEntry, RunAgentInput } from "@ag-ui/core";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { parseSseFrames, readSseFrames, type SseFrame } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { deploymentServices, startDeployment, type Deployment } from "../helpers/behind-nginx.ts";
import { tokenFor, type ServerProcess } from "../helpers/server-process.ts";

/**
 * Issue 13 as an operator deploys it: two demo servers, each a real process,
 * on one PostgreSQL and one Redis, behind Debian's nginx (round-robin,
 * buffering off, the configuration in docs/operations.md). Every request goes through
 * nginx; the `x-tether-upstream` header says which instance served it.
 */

/** The bound docs/operations.md states: a client hears of its instance's death within this. */
const BOUND_MS = 15_000;

const { skipped, schemas, databaseUrl, redisUrl } = await deploymentServices("Two instances behind nginx");

describe.skipIf(skipped)("two instances behind nginx, on PostgreSQL and Redis", () => {
  let deployment: Deployment;

  beforeAll(async () => {
    // A pause between the playbook's stream parts: runs last long enough to act while they stream.
    deployment = await startDeployment({ databaseUrl, redisUrl, schema: schemas!.make("nginx"), chunkDelayMs: 40 });
  }, 60_000);
  afterAll(async () => {
    await deployment?.stop();
    await schemas?.dropAll();
  });

  const headers = (user: string) => ({ "Content-Type": "application/json", Authorization: `Bearer ${tokenFor(user)}` });
  const post = (user: string, input: Pick<RunAgentInput, "threadId" | "runId"> & Partial<RunAgentInput>) =>
    fetch(`${deployment.url}/api/agents/workdesk/run`, {
      method: "POST",
      headers: headers(user),
      body: JSON.stringify({ messages: [], tools: [toAgUiTool(navigateToScreen)], context: [], state: {}, forwardedProps: {}, ...input }),
    });
  const ask = (user: string, threadId: string, runId: string, text: string) =>
    post(user, { threadId, runId, messages: [{ id: `${runId}-u1`, role: "user", content: text }] });
  /** Attaches to the thread's run through nginx, landing on `instance`. */
  const attach = async (instance: ServerProcess, user: string, threadId: string, lastEventId?: string) => {
    await deployment.steerTo(instance);
    const response = await fetch(`${deployment.url}/api/threads/${threadId}/events`, {
      headers: { ...headers(user), ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
    });
    expect(deployment.servedBy(response)).toBe(instance);
    return response;
  };
  const other = (instance: ServerProcess) => deployment.instances.find((candidate) => candidate !== instance)!;
  const seqOf = (frame: SseFrame) => Number(frame.id!.split(":").at(-1));
  const results = (seen: SseFrame[]) =>
    seen.filter((frame) => frame.data.type === "TOOL_CALL_RESULT").map((frame) => JSON.parse((frame.data as { content: string }).content));

  it("serves a run executing on one instance to a client following it through the other, and that client's reconnect with exactly the missed events", async () => {
    const threadId = `nginx-follow-${Date.now()}`;
    const runId = `${threadId}-r1`;
    const started = await ask("kim", threadId, runId, "open the work request list");
    expect(started.status).toBe(200);
    const executing = deployment.servedBy(started);
    const whole = readSseFrames(started);
    await whole.until(3);

    // A second tab follows the run through the other instance, reads a little, and its connection drops.
    const follower = await attach(other(executing), "kim", threadId);
    const reader = readSseFrames(follower);
    const before = await reader.until(5);
    expect(before.some((frame) => frame.data.type === "RUN_FINISHED")).toBe(false);
    const heldId = before.at(-1)!.id!;
    await reader.cancel();

    // It reconnects with the last id it holds; nginx sends it to the other instance again.
    const reconnect = readSseFrames(await attach(other(executing), "kim", threadId, heldId));
    const resumed = await reconnect.all();
    const all = await whole.all();

    expect(all.at(-1)!.data.type).toBe("RUN_FINISHED");
    expect(before.map((frame) => frame.id)).toEqual(all.slice(0, before.length).map((frame) => frame.id));
    const seqs = resumed.map(seqOf);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => seqOf(before.at(-1)!) + 1 + index));
    expect(resumed.map((frame) => frame.data)).toEqual(all.slice(before.length).map((frame) => frame.data));
  });

  /** Lee asks to close a request; the run on whichever instance nginx picked ends waiting for approval. */
  async function askToClose(threadId: string, requestId: string) {
    const response = await ask("lee", threadId, `${threadId}-r1`, `close ${requestId} as fixed`);
    const asker = deployment.servedBy(response);
    const finished = parseSseFrames(await response.text()).at(-1)!.data as { type: string; outcome: { type: string; interrupts: Array<{ id: string }> } };
    expect(finished).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "interrupt" } });
    return { asker, interruptId: finished.outcome.interrupts[0]!.id };
  }
  const approve = (interruptId: string): ResumeEntry[] => [{ interruptId, status: "resolved", payload: { approved: true } }];
  const request = async (id: string) =>
    ((await (await fetch(`${deployment.url}/api/workdesk/requests/${id}`, { headers: headers("lee") })).json()) as { request: { status: string } }).request;
  const runsOf = async (threadId: string) =>
    ((await (await fetch(`${deployment.url}/api/threads/${threadId}/runs`, { headers: headers("lee") })).json()) as { runs: unknown[] }).runs;

  it("executes an approval asked on one instance and answered through the other once", async () => {
    const threadId = `nginx-approve-${Date.now()}`;
    const { asker, interruptId } = await askToClose(threadId, "R-1042");
    await deployment.steerTo(other(asker));
    const answered = await post("lee", { threadId, runId: `${threadId}-r2`, resume: approve(interruptId) });
    expect(deployment.servedBy(answered)).toBe(other(asker));
    const seen = parseSseFrames(await answered.text());
    expect(seen.at(-1)!.data.type).toBe("RUN_FINISHED");
    expect(results(seen)).toEqual([expect.objectContaining({ closed: true })]);
    expect((await request("R-1042")).status).toBe("closed");
    expect(await runsOf(threadId)).toHaveLength(2);
  });

  it("executes an approval once when the same answer, from two tabs, reaches both instances at the same time", async () => {
    const threadId = `nginx-twice-${Date.now()}`;
    const { interruptId } = await askToClose(threadId, "R-1005");
    const answer = (runId: string) => post("lee", { threadId, runId, resume: approve(interruptId) });
    const [first, second] = await Promise.all([answer(`${threadId}-ra`), answer(`${threadId}-rb`)]);
    // Round-robin: one answer went to each instance.
    expect(deployment.servedBy(first)).not.toBe(deployment.servedBy(second));
    // The other answer came while the first ran, or after it ended: either way it is that run again (200, the same events).
    expect([first.status, second.status]).toEqual([200, 200]);
    const streams = await Promise.all([first, second].map(async (response) => parseSseFrames(await response.text())));
    expect(streams[1]).toEqual(streams[0]);
    for (const seen of streams) expect(results(seen)).toEqual([expect.objectContaining({ closed: true })]);
    expect((await request("R-1005")).status).toBe("closed");
    expect(await runsOf(threadId)).toHaveLength(2);
  });

  // Last: it kills an instance.
  it("ends a run for a client attached through the other instance within the bound when its instance is killed with SIGKILL, and the thread goes on", async () => {
    const threadId = `nginx-kill-${Date.now()}`;
    const started = await ask("kim", threadId, `${threadId}-r1`, "open the work request list");
    const executing = deployment.servedBy(started);
    await readSseFrames(started).until(2);
    const survivor = other(executing);
    const follower = readSseFrames(await attach(survivor, "kim", threadId));
    expect((await follower.until(2)).some((frame) => frame.data.type === "RUN_FINISHED")).toBe(false);

    const killedAt = performance.now();
    await executing.stop("SIGKILL");
    const seen = await follower.all();
    const elapsed = performance.now() - killedAt;
    console.info(
      `Behind nginx: RUN_ERROR instance_lost reached the client through the survivor ${Math.round(elapsed)} ms after SIGKILL (bound ${BOUND_MS} ms).`,
    );
    expect(seen.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "instance_lost" });
    expect(elapsed).toBeLessThanOrEqual(BOUND_MS);

    // nginx finds the killed instance refusing connections and passes the next run to the survivor.
    const next = await ask("kim", threadId, `${threadId}-r2`, "open the work request list");
    expect(deployment.servedBy(next)).toBe(survivor);
    const after = parseSseFrames(await next.text());
    expect(after[0]!.data.type).toBe("RUN_STARTED");
    expect(after.at(-1)!.data.type).toBe("RUN_FINISHED");
  }, 60_000);
});
