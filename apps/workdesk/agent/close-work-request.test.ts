import { createRunState, type ToolContext } from "@tether-agent/tether/server";
import { catchTetherError } from "@tether-agent/tether/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeWorkRequestTool } from "./close-work-request.ts";
import { createSqliteWorkRequestRepository, type SqliteWorkRequestRepository } from "./sqlite-work-request-repository.ts";
import { WORKDESK_USERS } from "./users.ts";
import type { WorkdeskUser } from "./users.ts";

const user = (userId: string) => WORKDESK_USERS.find((candidate) => candidate.id === userId)!;
const [kim, lee, park] = [user("kim"), user("lee"), user("park")];
const context = (who: WorkdeskUser): ToolContext<WorkdeskUser> => ({
  user: who,
  threadId: "thread-1",
  runId: "run-1",
  toolCallId: "call_1",
  signal: new AbortController().signal,
  state: createRunState({ initial: {}, emit: () => {} }),
});

describe("closeWorkRequestTool", () => {
  let requests: SqliteWorkRequestRepository;
  let tool: ReturnType<typeof closeWorkRequestTool>;
  const needsApproval = (args: { requestId: string; resolution: string }, who: WorkdeskUser) =>
    (tool.needsApproval as (a: typeof args, u: WorkdeskUser) => boolean)(args, who);

  beforeEach(async () => {
    requests = await createSqliteWorkRequestRepository({ filename: ":memory:" });
    tool = closeWorkRequestTool(requests);
  });
  afterEach(() => requests.closeDatabase());

  it("asks for approval to close an open request, naming it", () => {
    expect(needsApproval({ requestId: "R-1042", resolution: "fixed" }, lee)).toBe(true);
    expect(tool.approvalMessage!({ requestId: "R-1042", resolution: "fixed" }, lee)).toBe('Close R-1042 "Replace broken badge reader at Gate 3" as "fixed"?');
  });

  it("closes on execute and says so, with the stored resolution and time", async () => {
    const result = await tool.execute({ requestId: "R-1042", resolution: "fixed" }, context(lee));
    expect(result).toEqual({
      closed: true,
      requestId: "R-1042",
      title: "Replace broken badge reader at Gate 3",
      status: "closed",
      resolution: "fixed",
      closedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("does not ask anyone to approve closing a request that is already closed", async () => {
    await tool.execute({ requestId: "R-1042", resolution: "fixed" }, context(lee));
    expect(needsApproval({ requestId: "R-1042", resolution: "again" }, lee)).toBe(false);
  });

  it("reports a second close as already closed, with the first resolution and time, and changes nothing", async () => {
    const first = (await tool.execute({ requestId: "R-1042", resolution: "fixed" }, context(lee))) as { closedAt: string };
    const before = await requests.get("ORG-01", "R-1042");
    const second = await tool.execute({ requestId: "R-1042", resolution: "replaced" }, context(lee));
    expect(second).toEqual({
      closed: false,
      alreadyClosed: true,
      requestId: "R-1042",
      title: "Replace broken badge reader at Gate 3",
      status: "closed",
      resolution: "fixed",
      closedAt: first.closedAt,
    });
    expect(await requests.get("ORG-01", "R-1042")).toEqual(before);
  });

  it("refuses another organisation's request before anyone is asked, as if it did not exist", () => {
    const error = catchTetherError(() => tool.authorize!({ requestId: "R-1042", resolution: "fixed" }, park));
    expect(error).toMatchObject({ code: "forbidden", message: expect.stringMatching(/There is no work request R-1042 in ORG-02; search for it/) });
  });

  it("refuses a high-priority request to someone who is not a manager", () => {
    const error = catchTetherError(() => tool.authorize!({ requestId: "R-1042", resolution: "fixed" }, kim));
    expect(error).toMatchObject({ code: "forbidden", message: "R-1042 is high priority: only a manager can close it." });
  });

  it("refuses on execute too when the request is not in the user's organisation", async () => {
    await expect(tool.execute({ requestId: "R-1042", resolution: "fixed" }, context(park))).rejects.toMatchObject({ code: "forbidden" });
    expect((await requests.get("ORG-01", "R-1042"))?.status).toBe("open");
  });
});
