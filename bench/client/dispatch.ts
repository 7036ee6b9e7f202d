import { defineBrowserTool } from "@tether-agent/tether/protocol";
import { createAgentSession } from "@tether-agent/tether/client";
import { median } from "./report.ts";
import { BROWSER_TOOL, type RunStream, type Workload } from "./workload.ts";
import { MemoryStorage } from "./memory-storage.ts";

/** How long a browser call waits between its TOOL_CALL_END's bytes reaching the page and its tool's code being called. */
export interface DispatchLatency {
  /** One figure per browser call, ms. */
  samples: number[];
}

/** A render-only copy of the benchmark's browser tool: its outcome goes with the next run, so no continuation is asked for. */
const navigate = defineBrowserTool({
  name: BROWSER_TOOL,
  description: "Opens a screen of the application.",
  kind: "render-only",
  parameters: {
    type: "object",
    properties: { screenId: { type: "string", pattern: "^MNU-[0-9]{4}$" }, reason: { type: "string" } },
    required: ["screenId"],
    additionalProperties: false,
  },
});

/** Where the frame of this call's TOOL_CALL_END starts in the run's bytes (its `id:` line). */
function endFrameOffset(run: RunStream, toolCallId: string): number {
  const text = new TextDecoder().decode(run.bytes);
  const at = text.indexOf(`"type":"TOOL_CALL_END","toolCallId":"${toolCallId}"`);
  if (at < 0) throw new Error(`No TOOL_CALL_END for ${toolCallId} in run ${run.runId}.`);
  return new TextEncoder().encode(text.slice(0, text.lastIndexOf("id: ", at))).length;
}

/**
 * A `fetch` that answers the run with its bytes in `chunkSize` pieces up to the
 * browser call's TOOL_CALL_END, then, once the page has had `pauseMs` to apply
 * what came (as between two packets of a model's stream), the rest: the END
 * arrives on its own. Notes when it handed the END over.
 */
function splitFetch(run: RunStream, chunkSize: number, pauseMs: number, onEndHandedOver: (at: number) => void) {
  const split = endFrameOffset(run, run.browserCalls[0]!);
  return async (): Promise<Response> => {
    let offset = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (offset >= run.bytes.length) return controller.close();
        if (offset === split) {
          await new Promise((resolve) => setTimeout(resolve, pauseMs));
          onEndHandedOver(performance.now());
          controller.enqueue(run.bytes.subarray(offset));
          offset = run.bytes.length;
          return;
        }
        const end = Math.min(offset + chunkSize, split > offset ? split : run.bytes.length);
        controller.enqueue(run.bytes.subarray(offset, end));
        offset = end;
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}

/**
 * Dispatch latency through the public session (`createAgentSession` against a
 * plain AG-UI run URL, so nothing but the run is requested): each run of the
 * workload that stops on a browser call is sent by a session of its own, its
 * TOOL_CALL_END held back until the page is idle, and the time from handing
 * those bytes over to the tool's `execute` being called is one sample.
 */
export async function measureDispatch(workload: Workload, chunkSize: number, pauseMs = 5): Promise<DispatchLatency> {
  const samples: number[] = [];
  for (const run of workload.runs.filter((candidate) => candidate.browserCalls.length === 1)) {
    let handedOver = 0;
    let called = 0;
    const session = createAgentSession({
      runUrl: "http://tether.bench/run",
      threadId: `${workload.threadId}-${run.runId}`,
      fetch: splitFetch(run, chunkSize, pauseMs, (at) => (handedOver = at)),
      storage: new MemoryStorage(),
      drift: "ignore",
    });
    session.registerTool({
      spec: navigate,
      execute: () => {
        called = performance.now();
        return { status: "succeeded", stage: "displayed" };
      },
    });
    await session.send("open the screen");
    if (called === 0 || handedOver === 0)
      throw new Error(`Run ${run.runId}: the browser call was not dispatched (${JSON.stringify(session.getState().error)}).`);
    samples.push(called - handedOver);
  }
  return { samples };
}

/** `median 0.41 ms, p95 0.80 ms, max 1.20 ms (78 calls)`. */
export function describeDispatch(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
  return `median ${median(sorted).toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms (${sorted.length} calls)`;
}
