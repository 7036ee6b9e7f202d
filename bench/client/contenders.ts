import { HttpAgent, runHttpRequest, transformHttpEventStream, type AgentSubscriber } from "@ag-ui/client";
import type { BaseEvent, Message, Tool } from "@ag-ui/core";
import { defineBrowserTool, toAgUiTool } from "@tether-agent/tether/protocol";
import { TetherHttpAgent, createCallJournal, createToolRegistry, createToolRunner, eventStream, type ToolActivity } from "@tether-agent/tether/client";
import type { Observable } from "rxjs";
// Not part of the public surface: the session's own event reader and the middleware that hands it each event, so the
// benchmark does what a session does.
import { createRunEventReader, readRunEvents } from "@tether-agent/tether/internal";
import { MemoryStorage } from "./memory-storage.ts";
import { BROWSER_TOOL, replayFetch, type Workload } from "./workload.ts";

/** What one contender did with the whole workload (every run, in order). */
export interface RoundResult {
  ms: number;
  events: number;
  /** Final messages of each run; only for the contenders that apply events. */
  messages?: Message[][];
  /** Tether only: how many times the browser tool's executor ran, and the runner's timeline. */
  executed?: number;
  activities?: ToolActivity[];
}

export interface Contender {
  name: string;
  description: string;
  /** Part of the ratio the target is about (the others are diagnostics). */
  headline: boolean;
  round(workload: Workload, chunkSize: number): Promise<RoundResult>;
}

const API = "http://tether.bench/api";
const URL_RUN = `${API}/agents/bench/run`;

const navigate = defineBrowserTool({
  name: BROWSER_TOOL,
  description: "Opens a screen of the application.",
  parameters: {
    type: "object",
    properties: { screenId: { type: "string", pattern: "^MNU-[0-9]{4}$" }, reason: { type: "string" } },
    required: ["screenId"],
    additionalProperties: false,
  },
});
const tools: Tool[] = [toAgUiTool(navigate)];

/**
 * The baseline: what `new HttpAgent({ url }).runAgent()` does — runHttpRequest
 * + transformHttpEventStream (parseSSEStream), then the reference pipeline
 * (enforce, transform chunks, verify, defaultApplyEvents) — with a
 * subscriber whose onEvent only counts, so apply calls a subscriber per event
 * just as it does for Tether's.
 */
export const reference: Contender = {
  name: "reference",
  description: "@ag-ui/client HttpAgent.runAgent (parseSSEStream + verify + defaultApplyEvents), counting subscriber",
  headline: true,
  async round(workload, chunkSize) {
    const fetch = replayFetch(
      workload.runs.map((run) => run.bytes),
      chunkSize,
    );
    const messages: Message[][] = [];
    let events = 0;
    const subscriber: AgentSubscriber = {
      onEvent: () => {
        events++;
      },
    };
    const started = performance.now();
    for (const run of workload.runs) {
      const agent = new HttpAgent({ url: URL_RUN, fetch, threadId: workload.threadId });
      await agent.runAgent({ runId: run.runId, tools }, subscriber);
      messages.push(agent.messages);
    }
    return { ms: performance.now() - started, events, messages };
  },
};

/**
 * Tether's client path, per event what a session does (src/client/session/session.ts):
 * readSse (ids kept) → eventStream's Observable → TetherHttpAgent into the
 * same reference pipeline; every event off the wire also goes to the tool
 * runner through the session's middleware (`agent.use(readRunEvents(...))`,
 * one registered browser tool, a journal over in-memory storage; RUN_STARTED
 * marks the run as this tab's), through the same run event reader the session uses.
 * One session's worth of registry, journal and runner per round; browser
 * calls at their TOOL_CALL_END really execute (ajv-validated, outcome
 * checked with zod, journaled), server calls are only tracked. The
 * subscriber counts events, as the reference's does.
 */
export function tether(options: { runner: boolean } = { runner: true }): Contender {
  return {
    name: options.runner ? "tether" : "tether-agent",
    description: options.runner
      ? "TetherHttpAgent (readSse + eventStream) + same pipeline, middleware readRunEvents → toolRunner.observe (1 browser tool)"
      : "TetherHttpAgent (readSse + eventStream) + same pipeline, no tool runner",
    headline: options.runner,
    async round(workload, chunkSize) {
      const fetch = replayFetch(
        workload.runs.map((run) => run.bytes),
        chunkSize,
      );
      const messages: Message[][] = [];
      let events = 0;
      let executed = 0;
      const started = performance.now();
      const registry = createToolRegistry();
      registry.register({
        spec: navigate,
        execute: () => {
          executed++;
          return { status: "succeeded", stage: "displayed" };
        },
      });
      const journal = createCallJournal(workload.threadId, new MemoryStorage());
      let activities: ToolActivity[] = [];
      const runner = createToolRunner({
        registry,
        journal,
        threadId: workload.threadId,
        mode: () => "side",
        // What a session does on a timeline change (minus notifying its listeners).
        onChange: (current) => {
          activities = current;
        },
      });
      // The reader the session's middleware hands every event to: one path for every event.
      let ends = 0;
      const read = createRunEventReader({ journal, runner, onRunEnded: () => void ends++ });
      const subscriber: AgentSubscriber = {
        onEvent: () => {
          events++;
        },
      };
      for (const run of workload.runs) {
        const agent = new TetherHttpAgent({
          url: URL_RUN,
          eventsUrl: `${API}/threads/${workload.threadId}/events`,
          fetch,
          threadId: workload.threadId,
        });
        if (options.runner) agent.use(readRunEvents(agent, read));
        if (options.runner) journal.ownRun(run.runId);
        await agent.runAgent(
          { runId: run.runId, tools, ...(options.runner ? { forwardedProps: { tether: { trigger: { kind: "user-message" } } } } : {}) },
          subscriber,
        );
        messages.push(agent.messages);
      }
      const ms = performance.now() - started;
      void activities;
      if (options.runner && ends !== workload.runs.length) throw new Error(`The run event reader saw ${ends} run ends, expected ${workload.runs.length}.`);
      return options.runner ? { ms, events, messages, executed, activities: runner.activities() } : { ms, events, messages };
    },
  };
}

function drain(events$: Observable<BaseEvent>): Promise<number> {
  return new Promise((resolve, reject) => {
    let events = 0;
    events$.subscribe({
      next: () => {
        events++;
      },
      error: reject,
      complete: () => resolve(events),
    });
  });
}

/** Diagnostic: the reference transport alone — runHttpRequest + transformHttpEventStream, events counted, nothing applied. */
export const referenceParse: Contender = {
  name: "ref-parse",
  description: "runHttpRequest + transformHttpEventStream only (parse, no pipeline)",
  headline: false,
  async round(workload, chunkSize) {
    const fetch = replayFetch(
      workload.runs.map((run) => run.bytes),
      chunkSize,
    );
    let events = 0;
    const started = performance.now();
    for (const _run of workload.runs) events += await drain(transformHttpEventStream(runHttpRequest(() => fetch(URL_RUN, {}))));
    return { ms: performance.now() - started, events };
  },
};

/** Diagnostic: Tether's transport alone — eventStream over readSse, events counted, nothing applied. */
export const tetherParse: Contender = {
  name: "tether-parse",
  description: "eventStream (readSse, ids) only (parse, no pipeline)",
  headline: false,
  async round(workload, chunkSize) {
    const fetch = replayFetch(
      workload.runs.map((run) => run.bytes),
      chunkSize,
    );
    let events = 0;
    const started = performance.now();
    for (const _run of workload.runs) {
      events += await drain(
        eventStream({
          open: (signal) => fetch(URL_RUN, { signal }),
          resume: () => Promise.reject(new Error("the benchmark never drops a stream")),
        }),
      );
    }
    return { ms: performance.now() - started, events };
  },
};
