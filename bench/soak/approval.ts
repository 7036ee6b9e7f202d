import { randomUUID } from "node:crypto";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { checkStream } from "./check-stream.ts";
import { TrafficError, post, userTurn, type SoakTarget } from "./soak-target.ts";

/** How often an approval is given rather than refused, and how many requests stay open for the approvals still to come. */
const APPROVE_EVERY = 20;
const KEEP_OPEN = 5;

/**
 * lee asks to close a request as fixed: the run ends asking for approval, and
 * the next run answers it (`resume`). A close that is approved cannot be asked
 * again, so one answer in 20 approves while more than 5 of the requests are
 * open, and the others refuse: approvals keep coming for the whole soak. Each
 * request is used by one story at a time (`openIds` is the pool).
 */
export function approvalScenario(target: SoakTarget, openIds: string[]) {
  let asked = 0;
  return async () => {
    const requestId = await nextOpen(openIds);
    if (!requestId) throw new TrafficError("approval: no open request left to close");
    const approve = ++asked % APPROVE_EVERY === 0 && openIds.length >= KEEP_OPEN;
    try {
      const threadId = `soak-approve-${randomUUID()}`;
      const ask = userTurn(threadId, `${threadId}-r1`, `close ${requestId} as fixed`);
      const asking = parseSseFrames(await (await post(target, "lee", "/api/agents/workdesk/run", ask)).text());
      checkStream("approval, run 1", asking, ask.runId, 0, "interrupt");
      const [interrupt] = (asking.at(-1)!.data as { outcome: { interrupts: Array<{ id: string }> } }).outcome.interrupts;
      const answer = {
        ...userTurn(threadId, `${threadId}-r2`, ""),
        messages: [],
        resume: [{ interruptId: interrupt!.id, status: "resolved", payload: { approved: approve } }],
      };
      checkStream("approval, run 2", parseSseFrames(await (await post(target, "lee", "/api/agents/workdesk/run", answer)).text()), answer.runId);
    } finally {
      if (!approve) openIds.push(requestId);
    }
  };
}

/** An open request no other approval is using; when every one is in use (a slow moment, many approvals at once), the first one back. */
async function nextOpen(openIds: string[]): Promise<string | undefined> {
  for (const deadline = Date.now() + 30_000; openIds.length === 0 && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 10));
  return openIds.shift();
}
