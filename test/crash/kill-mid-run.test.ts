import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { EventType, HttpAgent, runHttpRequest, transformHttpEventStream, verifyEvents, type BaseEvent } from "@ag-ui/client";
import type { RunAgentInput } from "@ag-ui/core";
import { createAgentSession } from "@tether-agent/tether/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createMemoryStorage, parseSseFrames, type SseFrame } from "@tether-agent/tether/testing";
import { from, lastValueFrom, toArray, type Observable } from "rxjs";
import { afterAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { freePort, startServerProcess, tokenFor, type ServerProcess } from "../helpers/server-process.ts";

/**
 * SIGKILL a real server process in the middle of runs (streaming text, server
 * tool calls, a browser call, an approved resume), start it again on the same
 * data and port, and reconnect the way clients do: with the last id each one
 * holds, with the reference client's connect, and with Tether's own session.
 * Every reconnect must end with the run's end, and never name two events
 * with one id.
 */

const CHUNK_DELAY_MS = 10;
/** When, after each run's RUN_STARTED reached its client, the server is killed: one round each, spread over the runs' lives. */
const KILL_AFTER_MS = [0, 15, 35, 60, 90, 130, 180, 240];
/** Open requests of ORG-01, one per round, for lee's approved close. */
const CLOSABLE = ["R-1001", "R-1004", "R-1010", "R-1022", "R-1025", "R-1028", "R-1034", "R-1037"];

interface Story {
  name: string;
  user: string;
  threadId: string;
  /** Starts the run this round kills; resolves once its request went out. */
  body: RunAgentInput;
}

/** One client's view of a run: the frames it got before the server died. */
interface RawClient {
  story: Story;
  frames: SseFrame[];
  firstFrame: Promise<void>;
  done: Promise<void>;
}

const dataDir = mkdtempSync(join(tmpdir(), "tether-crash-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const headers = (user: string) => ({ "Content-Type": "application/json", Authorization: `Bearer ${tokenFor(user)}` });
const userTurn = (threadId: string, text: string): RunAgentInput => ({
  threadId,
  runId: `${threadId}-r1`,
  messages: [{ id: `${threadId}-u1`, role: "user", content: text }],
  tools: [toAgUiTool(navigateToScreen)],
  context: [],
  state: {},
  forwardedProps: {},
});

/** Posts a run and reads its SSE frames as they arrive, until the stream ends or the server dies. */
function rawClient(server: ServerProcess, story: Story): RawClient {
  const frames: SseFrame[] = [];
  let seenFirst!: () => void;
  const firstFrame = new Promise<void>((resolve) => (seenFirst = resolve));
  const done = (async () => {
    try {
      const response = await fetch(`${server.url}/api/agents/workdesk/run`, { method: "POST", headers: headers(story.user), body: JSON.stringify(story.body) });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        const cut = text.lastIndexOf("\n\n");
        if (cut === -1) continue;
        frames.push(...parseSseFrames(text.slice(0, cut + 2)));
        text = text.slice(cut + 2);
        seenFirst();
      }
    } catch {
      // The server died under the stream: what arrived is what this client holds.
    } finally {
      seenFirst();
    }
  })();
  return { story, frames, firstFrame, done };
}

const seqOf = (id: string | undefined) => Number(id?.slice(id.lastIndexOf(":") + 1) ?? 0);
const verified = (events: BaseEvent[]) => lastValueFrom((from(events) as Observable<BaseEvent>).pipe(verifyEvents(), toArray()));

/** An unmodified HttpAgent whose connect attaches to the thread with the reference client's own transport. */
class ThreadEventsAgent extends HttpAgent {
  constructor(
    private readonly eventsUrl: string,
    user: string,
    threadId: string,
  ) {
    super({ url: "unused", headers: { Authorization: `Bearer ${tokenFor(user)}` }, threadId });
  }
  protected override connect(): Observable<BaseEvent> {
    return transformHttpEventStream(runHttpRequest(() => fetch(this.eventsUrl, { headers: { ...this.headers, Accept: "text/event-stream" } })));
  }
}

describe("a server killed with SIGKILL mid-run, then started again", () => {
  it("ends every reconnect with the run's end, whatever id the client holds, and says which events were lost", async () => {
    const port = await freePort();
    let server = await startServerProcess({ dataDir, port, chunkDelayMs: CHUNK_DELAY_MS });
    const killPoints: Array<{ story: string; round: number; heldSeq: number; midRun: boolean; lost: boolean }> = [];
    let sessionsMidRun = 0;
    try {
      for (const [round, killAfter] of KILL_AFTER_MS.entries()) {
        // An approval asked before the round, answered in the run that is killed.
        const approvalThread = `c${round}-approve`;
        const asked = parseSseFrames(
          await (
            await fetch(`${server.url}/api/agents/workdesk/run`, {
              method: "POST",
              headers: headers("lee"),
              body: JSON.stringify(userTurn(approvalThread, `close ${CLOSABLE[round]} as fixed`)),
            })
          ).text(),
        );
        const interrupt = asked.at(-1)!.data.outcome.interrupts[0];
        const stories: Story[] = [
          {
            name: "streaming text after a server tool",
            user: "kim",
            threadId: `c${round}-search`,
            body: userTurn(`c${round}-search`, "find badge reader requests"),
          },
          { name: "a browser tool call", user: "kim", threadId: `c${round}-open`, body: userTurn(`c${round}-open`, "open the work request list") },
          {
            name: "an approved resume",
            user: "lee",
            threadId: approvalThread,
            body: {
              ...userTurn(approvalThread, ""),
              runId: `${approvalThread}-r2`,
              messages: [],
              resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }],
            },
          },
        ];

        // Tether's own session, acting on its browser tool, on a thread of its own.
        const executed: string[] = [];
        const session = createAgentSession({
          api: `${server.url}/api`,
          agentId: "workdesk",
          threadId: `c${round}-sdk`,
          headers: { Authorization: `Bearer ${tokenFor("kim")}` },
          storage: createMemoryStorage(),
          drift: "ignore",
        });
        session.registerTool({ spec: navigateToScreen, execute: (args) => (executed.push(args.screenId), { status: "succeeded", stage: "displayed" }) });
        const sent = session.send("open the work request list").then(
          () => undefined,
          (error: unknown) => error,
        );

        const clients = stories.map((story) => rawClient(server, story));
        await Promise.all(clients.map((client) => client.firstFrame));
        await sleep(killAfter);
        await server.stop("SIGKILL");
        server = await startServerProcess({ dataDir, port, chunkDelayMs: CHUNK_DELAY_MS });

        for (const client of clients) {
          await client.done;
          const { story, frames } = client;
          const held = frames.at(-1)?.id;
          const midRun = !frames.some((frame) => frame.data.type === EventType.RUN_FINISHED || frame.data.type === EventType.RUN_ERROR);
          const response = await fetch(`${server.url}/api/threads/${story.threadId}/events`, {
            headers: { ...headers(story.user), ...(held ? { "Last-Event-ID": held } : {}) },
          });
          expect(response.status, `${story.name}, round ${round}`).toBe(200);
          const resumed = parseSseFrames(await response.text());
          const ids = [...frames, ...resumed].map((frame) => frame.id!);
          const end = resumed.at(-1)?.data;

          // The stream ends, with the run's end; ids only go up.
          expect(end?.type, `${story.name}, round ${round}: ${JSON.stringify(resumed.map((frame) => frame.id))}`).toMatch(/^RUN_(FINISHED|ERROR)$/);
          let lost = false;
          if (midRun) {
            expect(ids.map(seqOf)).toEqual([...ids.map(seqOf)].sort((a, b) => a - b));
            expect(new Set(ids).size).toBe(ids.length);
            // The run was cut: the restarted server ended it, saying which ids never reached its store.
            expect(end).toMatchObject({ type: EventType.RUN_ERROR, code: "instance_lost" });
            const range = end.metadata.tether.lostEvents as { afterSeq: number; throughSeq: number };
            lost = seqOf(held) > range.afterSeq;
            expect(seqOf(held)).toBeLessThanOrEqual(range.throughSeq);
            if (lost) expect(end.message).toMatch(/were not saved/);
            // What the client saw, then what it was sent again, is one valid AG-UI run.
            await verified([...frames, ...resumed].map((frame) => frame.data as BaseEvent));
          } else {
            // It had ended before the kill: the reconnect gives the end again, nothing else.
            expect(resumed).toHaveLength(1);
            expect(resumed[0]!.id).toBe(held);
          }
          killPoints.push({ story: story.name, round, heldSeq: seqOf(held), midRun, lost });

          if (story.body.resume) {
            // The same approval answer again (a retry after the crash) replays the run that took it,
            // and what it shows of the thread is what the thread kept: the tool's result too, if it was saved.
            const repeat = await fetch(`${server.url}/api/agents/workdesk/run`, {
              method: "POST",
              headers: headers(story.user),
              body: JSON.stringify({ ...story.body, runId: `${story.threadId}-r3` }),
            });
            expect(repeat.headers.get("x-tether-repeat-of")).toBe(story.body.runId);
            const replayed = parseSseFrames(await repeat.text()).map((frame) => frame.data);
            expect(replayed.at(-1)?.type).toMatch(/^RUN_(FINISHED|ERROR)$/);
            const thread = await (await fetch(`${server.url}/api/threads/${story.threadId}`, { headers: headers(story.user) })).json();
            const results = (messages: Array<{ role: string; id: string }>) =>
              messages.filter((message) => message.role === "tool").map((message) => message.id);
            const shown = new Set([
              ...replayed.filter((event) => event.type === EventType.TOOL_CALL_RESULT).map((event) => event.messageId),
              ...replayed.filter((event) => event.type === EventType.MESSAGES_SNAPSHOT).flatMap((event) => results(event.messages)),
            ]);
            for (const id of results(thread.messages)) expect(shown, `round ${round}: the thread's result ${id}`).toContain(id);
          }

          // The reference client's connect replays the whole run and passes its verification.
          const agent = new ThreadEventsAgent(`${server.url}/api/threads/${story.threadId}/events`, story.user, story.threadId);
          await agent.connectAgent();
          expect(agent.messages.length).toBeGreaterThan(0);
        }

        // Tether's session reconnected to the restarted server and ended with the run's real end:
        // the server's error if the kill cut a run, never a transport failure; the navigation ran once at most.
        await sent;
        const error = session.getState().error;
        if (error) {
          expect(error.code, `session, round ${round}: ${error.message}`).toBe("instance_lost");
          sessionsMidRun++;
        }
        expect(executed.length).toBeLessThanOrEqual(1);
        expect(session.getState().running).toBe(false);
      }

      // Enough of the kills landed mid-run, across every kind of run.
      const midRun = killPoints.filter((point) => point.midRun);
      console.log(
        `kill points: ${killPoints.length}, mid-run: ${midRun.length}, client held lost ids: ${killPoints.filter((point) => point.lost).length}; sessions cut mid-run: ${sessionsMidRun}`,
      );
      expect(midRun.length + sessionsMidRun).toBeGreaterThanOrEqual(20);
      for (const name of ["streaming text after a server tool", "a browser tool call", "an approved resume"]) {
        expect(midRun.some((point) => point.story === name)).toBe(true);
      }
    } finally {
      await server.stop();
    }
  }, 300_000);
});
