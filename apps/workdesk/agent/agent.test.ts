import type { WorkdeskUser } from "./users.ts";
import { PLAYBOOK_PROVIDER, createRunState, type ServerTool, type ToolContext } from "@tether-agent/tether/server";
import { createScriptedModel } from "@tether-agent/tether/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createWorkdeskAgent, type WorkdeskAgentOptions } from "./index.ts";
import type { ScreenLookup } from "./lookup-screens.ts";
import { workdeskPlaybook } from "./playbook.ts";
import declarations from "./tools.json" with { type: "json" };
import { WORKDESK_USERS } from "./users.ts";
import { createSqliteWorkRequestRepository } from "./sqlite-work-request-repository.ts";
import { seedWorkRequests } from "./work-requests.ts";
import { catchTetherError } from "@tether-agent/tether/testing";

const kim = WORKDESK_USERS.find((user) => user.id === "kim")!;
const park = WORKDESK_USERS.find((user) => user.id === "park")!;

const requests = await createSqliteWorkRequestRepository({ filename: ":memory:" });
afterAll(() => requests.closeDatabase());

/** The Workdesk agent on the seeded records. */
function workdesk(options: Omit<WorkdeskAgentOptions, "requests"> = {}) {
  return createWorkdeskAgent({ requests, ...options });
}

function context(user: WorkdeskUser): ToolContext {
  return {
    user,
    threadId: "thread-1",
    runId: "run-1",
    toolCallId: "call_1",
    signal: new AbortController().signal,
    state: createRunState({ initial: {}, emit: () => {} }),
  };
}

function tool(name: string): ServerTool {
  const found = workdesk().tools.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`The Workdesk agent has no server tool "${name}".`);
  return found;
}

interface SearchOutput {
  orgScope: string;
  query: string;
  status?: string;
  total: number;
  requests: Array<{ id: string; title: string; status: string; priority: string; requester: string; updatedAt: string }>;
}

async function search(args: { query?: string; status?: string }, user: WorkdeskUser): Promise<SearchOutput> {
  return (await tool("searchWorkRequests").execute(args, context(user))) as SearchOutput;
}

describe("createWorkdeskAgent", () => {
  it("is the workdesk agent, with server history and a strict browser-tool allow-list", () => {
    const agent = workdesk();
    expect(agent.id).toBe("workdesk");
    expect(agent.history).toBe("server");
    expect(agent.browserToolPolicy).toBe("strict");
  });

  it("accepts exactly one browser tool, navigateToScreen, whose outcome starts a follow-up run", () => {
    const [navigate, ...others] = workdesk().browserTools;
    expect(others).toEqual([]);
    expect(navigate).toMatchObject({ name: "navigateToScreen", kind: "follow-up" });
    expect(navigate?.parameters).toMatchObject({ type: "object", required: ["screenId"] });
  });

  it("loads lookupScreens and searchWorkRequests from tools.json, descriptions and schemas included, then closeWorkRequest and render_a2ui", () => {
    const tools = workdesk().tools;
    expect(tools.map((candidate) => candidate.name)).toEqual(["lookupScreens", "searchWorkRequests", "closeWorkRequest", "render_a2ui"]);
    // Asks for every close that would change something (close-work-request.test.ts has when it does not).
    expect(tools.find((candidate) => candidate.name === "closeWorkRequest")?.needsApproval).toEqual(expect.any(Function));
    for (const declared of declarations) {
      const loaded = tools.find((candidate) => candidate.name === declared.name);
      expect(loaded?.description).toBe(declared.description);
      expect(loaded?.parameters).toEqual(declared.parameters);
    }
  });

  it("runs on the offline playbook model when given no model", () => {
    const model = workdesk().model;
    expect(model!.provider).toBe(PLAYBOOK_PROVIDER);
    expect(model!.modelId).toBe("playbook:workdesk");
  });

  it("runs on the model it is given", () => {
    const model = createScriptedModel([]);
    expect(workdesk({ model }).model).toBe(model);
  });

  it("tells a real model who the user is and never to claim an action it has no outcome for", () => {
    const instructions = workdesk().instructions(kim);
    expect(instructions).toContain("Kim Ara");
    expect(instructions).toContain("ORG-01");
    expect(instructions).toMatch(/Never claim an action you have no outcome for/);
  });

  it("refuses to start with a catalog entry nobody can run, naming the tool", () => {
    const broken = [...declarations, { ...declarations[0]!, name: "closeWorkRequest", executor: "workdesk.closeWorkRequest" }];
    const error = catchTetherError(() => workdesk({ toolCatalog: broken }));
    expect(error.code).toBe("tool_executor_missing");
    expect(error.message).toContain("closeWorkRequest");
    expect(error.message).toContain("workdesk.closeWorkRequest");
  });

  it("looks screens up for the calling user", async () => {
    const lookupScreens = tool("lookupScreens");
    const lee = WORKDESK_USERS.find((user) => user.id === "lee")!;
    const forKim = (await lookupScreens.execute({ query: "approvals" }, context(kim))) as ScreenLookup;
    const forLee = (await lookupScreens.execute({ query: "approvals" }, context(lee))) as ScreenLookup;
    expect(forKim.candidates).toEqual([]);
    expect(forLee.candidates[0]?.screenId).toBe("MNU-3200");
  });

  it("uses the repository it is given", async () => {
    const agent = createWorkdeskAgent({
      requests: { list: async () => [], get: async () => undefined, close: async () => ({ outcome: "not_found" }), getSync: () => undefined },
    });
    const searchTool = agent.tools.find((candidate) => candidate.name === "searchWorkRequests")!;
    expect(await searchTool.execute({}, context(kim))).toMatchObject({ total: 0, requests: [] });
  });
});

describe("the searchWorkRequests tool", () => {
  it("returns only park's organisation's requests, at most ten, with the true total", async () => {
    const found = await search({}, park);
    expect(found.orgScope).toBe("ORG-02");
    expect(found.total).toBe(19);
    expect(found.requests).toHaveLength(10);
    expect(found.requests.some((request) => request.id === "R-1042")).toBe(false);
    const org02 = new Set(
      seedWorkRequests()
        .filter((request) => request.orgScope === "ORG-02")
        .map((request) => request.id),
    );
    expect(found.requests.every((request) => org02.has(request.id))).toBe(true);
  });

  it("does not find ORG-01's badge reader for park, even by its id", async () => {
    expect(await search({ query: "R-1042" }, park)).toMatchObject({ total: 0, requests: [] });
    expect(await search({ query: "badge reader" }, park)).toMatchObject({ total: 0, requests: [] });
  });

  it("finds the badge reader for kim, with what the summary needs", async () => {
    const found = await search({ query: "badge reader", status: "open" }, kim);
    expect(found).toMatchObject({ orgScope: "ORG-01", query: "badge reader", status: "open", total: 1 });
    expect(found.requests).toEqual([
      { id: "R-1042", title: "Replace broken badge reader at Gate 3", status: "open", priority: "high", requester: "kim", updatedAt: expect.any(String) },
    ]);
  });

  it("filters by status and reports it back", async () => {
    const found = await search({ status: "closed" }, park);
    expect(found.status).toBe("closed");
    expect(found.total).toBeGreaterThan(0);
    expect(found.requests.every((request) => request.status === "closed")).toBe(true);
  });
});

describe("from what the user typed to what they are told", () => {
  async function ask(said: string, user: WorkdeskUser): Promise<string> {
    const first = workdeskPlaybook.respond({
      userText: said,
      userTexts: [said],
      results: [],
      sinceUser: [],
      tools: ["lookupScreens", "searchWorkRequests", "navigateToScreen"],
      offered: [],
      all: [],
      system: "",
      turnsSinceUser: 0,
    });
    const call = first.toolCalls?.[0];
    if (call?.toolName !== "searchWorkRequests") throw new Error(`"${said}" did not start a search.`);
    const output = await tool("searchWorkRequests").execute(call.input, context(user));
    const second = workdeskPlaybook.respond({
      userText: said,
      userTexts: [said],
      results: [{ toolCallId: "call_1", toolName: "searchWorkRequests", input: call.input, output, isError: false }],
      sinceUser: [],
      tools: ["lookupScreens", "searchWorkRequests", "navigateToScreen"],
      offered: [],
      all: [],
      system: "",
      turnsSinceUser: 1,
    });
    return second.text ?? "";
  }

  it("answers 'find open badge reader requests' with R-1042 for kim", async () => {
    expect(await ask("find open badge reader requests", kim)).toMatch(
      /^I found 1 open work request in ORG-01 matching "badge reader": R-1042 "Replace broken badge reader at Gate 3"/,
    );
  });

  it("answers a search with more results than it shows with how many more there are", async () => {
    expect(await ask("find requests", park)).toMatch(/^I found 19 work requests in ORG-02: .*…and 9 more\.$/);
  });

  it("finds requests when the user adds 'please'", async () => {
    expect(await ask("find open requests please", kim)).toMatch(/^I found \d+ open work requests/);
  });

  it("finds high priority requests when asked for them by priority", async () => {
    expect(await ask("find high priority requests", kim)).toMatch(/^I found \d+ work requests/);
  });
});
