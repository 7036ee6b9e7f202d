import type { WorkdeskUser } from "./users.ts";
import type { LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { ToolOutcome } from "@tether-agent/tether/protocol";
import { createPlaybookModel, type PlaybookConversation, type PlaybookResult, type ScriptedTurn } from "@tether-agent/tether/server";
import { afterAll, describe, expect, it } from "vitest";
import { lookupScreens, type ScreenLookup } from "./lookup-screens.ts";
import { workdeskPlaybook } from "./playbook.ts";
import { WORKDESK_USERS } from "./users.ts";
import { createSqliteWorkRequestRepository } from "./sqlite-work-request-repository.ts";

const ALL_TOOLS = ["lookupScreens", "searchWorkRequests", "navigateToScreen"];
/** Words that tell the user a screen is open. Before the browser reports an outcome, none may appear. */
const CLAIMS_OPEN = /\bis (now )?open\b|\bmoved you\b|\byou are now\b|\bhas opened\b|\bhave opened\b/i;

const requests = await createSqliteWorkRequestRepository({ filename: ":memory:" });
afterAll(() => requests.closeDatabase());
const kim = WORKDESK_USERS.find((user) => user.id === "kim")!;
const park = WORKDESK_USERS.find((user) => user.id === "park")!;
const KIM_LIST_LOOKUP = await lookupScreens("work request list", kim, requests);

function conversation(parts: Partial<PlaybookConversation>): PlaybookConversation {
  return { userText: "", userTexts: [], results: [], sinceUser: [], tools: ALL_TOOLS, offered: [], all: [], system: "", turnsSinceUser: 0, ...parts };
}

function said(userText: string): ScriptedTurn {
  return workdeskPlaybook.respond(conversation({ userText }));
}

function result(toolName: string, input: unknown, output: unknown, isError = false): PlaybookResult {
  return { toolCallId: "call_1", toolName, input, output, isError };
}

function afterLookup(lookup: ScreenLookup, tools = ALL_TOOLS): ScriptedTurn {
  return workdeskPlaybook.respond(
    conversation({ userText: "open it", tools, turnsSinceUser: 1, results: [result("lookupScreens", { query: lookup.query }, lookup)] }),
  );
}

const listArgs = { screenId: "MNU-3120", screenName: "Work request list", routeHint: "/work-requests", orgScope: "ORG-01" };

function afterNavigation(outcome: unknown, args: unknown = listArgs): ScriptedTurn {
  return workdeskPlaybook.respond(
    conversation({ userText: "open the work request list", turnsSinceUser: 2, results: [result("navigateToScreen", args, outcome)] }),
  );
}

function outcome(value: ToolOutcome): ToolOutcome {
  return value;
}

describe("workdeskPlaybook", () => {
  it("is named after the Workdesk, so the UI and logs can say which playbook answers", () => {
    expect(workdeskPlaybook.name).toBe("workdesk");
  });

  describe("a request to go somewhere", () => {
    it("looks the screen up with the cleaned target and says nothing yet", () => {
      const turn = said("open the work request list");
      expect(turn.toolCalls).toEqual([{ toolName: "lookupScreens", input: { query: "work request list" } }]);
      expect(turn.text ?? "").toBe("");
    });

    it("looks up a record id as the user wrote it", () => {
      expect(said("take me to R-1042").toolCalls).toEqual([{ toolName: "lookupScreens", input: { query: "r-1042" } }]);
    });
  });

  describe("after the lookup", () => {
    it("says it is opening the best candidate and asks the browser to open it by id", async () => {
      const turn = afterLookup(await lookupScreens("work request list", kim, requests));
      expect(turn.text).toBe("Opening Work request list…");
      expect(turn.toolCalls).toEqual([{ toolName: "navigateToScreen", input: listArgs }]);
    });

    it("asks for a new tab when the user did, and says so", async () => {
      const lookup = await lookupScreens("work request list", kim, requests);
      const turn = workdeskPlaybook.respond(
        conversation({
          userText: "open the work request list in a new tab",
          turnsSinceUser: 1,
          results: [result("lookupScreens", { query: lookup.query }, lookup)],
        }),
      );
      expect(turn.text).toBe("Opening Work request list in a new tab…");
      expect(turn.toolCalls).toEqual([{ toolName: "navigateToScreen", input: { ...listArgs, target: "new-tab" } }]);
    });

    it("passes the record to open as the payload of a detail screen", async () => {
      const turn = afterLookup(await lookupScreens("R-1042", kim, requests));
      expect(turn.toolCalls).toEqual([
        {
          toolName: "navigateToScreen",
          input: {
            screenId: "MNU-3130",
            screenName: "Work request detail",
            routeHint: "/work-requests/R-1042",
            orgScope: "ORG-01",
            payload: { requestId: "R-1042" },
          },
        },
      ]);
    });

    it("asks for the navigation in the organisation the lookup was made in", async () => {
      const turn = afterLookup(await lookupScreens("dashboard", park, requests));
      expect(turn.toolCalls?.[0]?.input).toMatchObject({ screenId: "MNU-3100", orgScope: "ORG-02" });
    });

    it("tells the route and menu path instead when the browser offers no navigateToScreen", async () => {
      const turn = afterLookup(await lookupScreens("work request list", kim, requests), ["lookupScreens", "searchWorkRequests"]);
      expect(turn.toolCalls ?? []).toEqual([]);
      expect(turn.text).toContain("/work-requests");
      expect(turn.text).toContain("Work management › Work request list");
      expect(turn.text).not.toMatch(CLAIMS_OPEN);
    });

    it("says nothing matched and offers the screens the user can open", async () => {
      const turn = afterLookup(await lookupScreens("quantum flux capacitor", kim, requests));
      expect(turn.toolCalls ?? []).toEqual([]);
      expect(turn.text).toContain('"quantum flux capacitor"');
      expect(turn.text).toContain("Dashboard, Work request list, New work request");
      expect(turn.text).not.toMatch(/Approvals|User administration/);
    });

    it("passes on the tool's error message when the lookup failed", () => {
      const turn = workdeskPlaybook.respond(
        conversation({
          turnsSinceUser: 1,
          results: [result("lookupScreens", { query: "x" }, { error: { message: "The screen catalog is unavailable." } }, true)],
        }),
      );
      expect(turn.text).toContain("The screen catalog is unavailable.");
      expect(turn.toolCalls ?? []).toEqual([]);
    });
  });

  describe("after the browser reports the navigation", () => {
    it("says the screen is open when it was displayed", () => {
      expect(afterNavigation(outcome({ status: "succeeded", stage: "displayed" })).text).toBe("Work request list is open now.");
    });

    it("reads the outcome from the tool message's JSON text as well", () => {
      expect(afterNavigation(JSON.stringify({ status: "succeeded", stage: "displayed" })).text).toBe("Work request list is open now.");
    });

    it("says the data is still loading when the screen only switched", () => {
      const text = afterNavigation(outcome({ status: "succeeded", stage: "switched" })).text;
      expect(text).toContain("Work request list");
      expect(text).toMatch(/still loading/);
    });

    it("does not claim the screen is open when the browser only got as far as requesting it", () => {
      const text = afterNavigation(outcome({ status: "succeeded", stage: "requested" })).text;
      expect(text).not.toMatch(CLAIMS_OPEN);
    });

    it("says it opened a new tab, with the route, only when the browser reported the tab opened", () => {
      const text = afterNavigation(outcome({ status: "succeeded", stage: "requested", data: { route: "/work-requests" } }), {
        ...listArgs,
        target: "new-tab",
      }).text;
      expect(text).toBe("I've opened a new tab for Work request list (/work-requests).");
      expect(text).not.toMatch(CLAIMS_OPEN);
    });

    it("says a blocked new tab was blocked and gives the route to follow by hand", () => {
      const text = afterNavigation(outcome({ status: "blocked", reason: "popup_blocked", message: "The browser blocked the new tab." }), {
        ...listArgs,
        target: "new-tab",
      }).text;
      expect(text).toMatch(/was blocked: The browser blocked the new tab\./);
      expect(text).toContain("/work-requests");
      expect(text).not.toMatch(/opened a new tab/);
      expect(text).not.toMatch(CLAIMS_OPEN);
    });

    it("says the user has no access, and never that the screen is open", () => {
      const text = afterNavigation(outcome({ status: "failed", reason: "access_denied" })).text;
      expect(text).toMatch(/doesn't have access|no access/);
      expect(text).toContain("Work request list");
      expect(text).not.toMatch(CLAIMS_OPEN);
    });

    it("says a screen missing from the menu could not be opened", () => {
      const text = afterNavigation(outcome({ status: "failed", reason: "not_found" })).text;
      expect(text).toMatch(/couldn't open Work request list/);
      expect(text).not.toMatch(CLAIMS_OPEN);
    });

    it("passes on the browser's message and the route for any other failure", () => {
      const text = afterNavigation(outcome({ status: "failed", reason: "timeout", message: "The screen took too long to load." })).text;
      expect(text).toContain("The screen took too long to load.");
      expect(text).toContain("/work-requests");
      expect(text).not.toMatch(CLAIMS_OPEN);
    });

    it("gives the route from the navigation request when the panel covers the screen", () => {
      const text = afterNavigation(outcome({ status: "blocked", reason: "blocked_by_mode" })).text;
      expect(text).toMatch(/can't change the screen/);
      expect(text).toContain("/work-requests");
      expect(text).not.toMatch(CLAIMS_OPEN);
    });

    it("prefers the route and path the browser reported", () => {
      const text = afterNavigation(
        outcome({ status: "blocked", reason: "blocked_by_mode", data: { route: "/wr", path: "Work management › Work request list" } }),
        { screenId: "MNU-3120", screenName: "Work request list" },
      ).text;
      expect(text).toContain("Work management › Work request list (/wr)");
    });

    it("points to the menu when a blocked navigation has no route at all", () => {
      const text = afterNavigation(outcome({ status: "blocked", reason: "blocked_by_mode" }), { screenId: "MNU-3120", screenName: "Work request list" }).text;
      expect(text).toContain("Look for Work request list in the menu");
    });

    it("refuses to call it open when the navigation was for another organisation", () => {
      const text = afterNavigation(outcome({ status: "blocked", reason: "org_scope_mismatch" })).text;
      expect(text).toMatch(/another organisation/);
      expect(text).not.toMatch(CLAIMS_OPEN);
    });

    it("says a cancelled navigation was cancelled", () => {
      const text = afterNavigation(outcome({ status: "cancelled" })).text;
      expect(text).toBe("Opening Work request list was cancelled.");
    });

    it("says it can't tell whether the screen opened when the page was reloaded", () => {
      const text = afterNavigation(outcome({ status: "unknown", reason: "page_reloaded" })).text;
      expect(text).toMatch(/can't tell whether it opened/);
      expect(text).toMatch(/page was reloaded/);
      expect(text).toContain("/work-requests");
      expect(text).not.toMatch(CLAIMS_OPEN);
    });

    it.each([["ok"], [{ done: true }], [{ status: "opened" }], [null]])("says it can't tell when the browser answers %j instead of an outcome", (content) => {
      const text = afterNavigation(content).text;
      expect(text).toMatch(/can't (tell|say) whether it opened/);
      expect(text).toContain("/work-requests");
      expect(text).not.toMatch(CLAIMS_OPEN);
    });

    it("falls back to the screen id when the call carried no name", () => {
      expect(afterNavigation(outcome({ status: "succeeded", stage: "displayed" }), { screenId: "MNU-3100" }).text).toBe("MNU-3100 is open now.");
    });
  });

  describe("a search", () => {
    it("searches with the words and status the user gave", () => {
      const turn = said("find open badge reader requests");
      expect(turn.toolCalls).toEqual([{ toolName: "searchWorkRequests", input: { query: "badge reader", status: "open" } }]);
      expect(turn.text).toMatch(/^Searching/);
    });

    it("leaves out an empty query", () => {
      expect(said("find closed requests").toolCalls).toEqual([{ toolName: "searchWorkRequests", input: { status: "closed" } }]);
    });

    function afterSearch(output: unknown): string {
      return workdeskPlaybook.respond(conversation({ turnsSinceUser: 1, results: [result("searchWorkRequests", {}, output)] })).text ?? "";
    }

    const badgeReader = { id: "R-1042", title: "Replace broken badge reader at Gate 3", status: "open", priority: "high", requester: "kim" };
    const printer = { id: "R-1025", title: "Repair jammed printer on 3rd floor", status: "in_progress", priority: "low", requester: "han" };

    it("names each request found with its id and title", () => {
      const text = afterSearch({ orgScope: "ORG-01", query: "", total: 2, requests: [badgeReader, printer] });
      expect(text).toMatch(/^I found 2 work requests in ORG-01/);
      expect(text).toContain('R-1042 "Replace broken badge reader at Gate 3"');
      expect(text).toContain('R-1025 "Repair jammed printer on 3rd floor" (in progress');
      expect(text).not.toContain("more");
    });

    it("says how many more there are when it shows only some", () => {
      const text = afterSearch({ orgScope: "ORG-01", query: "", total: 12, requests: [badgeReader, printer] });
      expect(text).toContain("I found 12 work requests");
      expect(text).toContain("…and 10 more.");
    });

    it("speaks of one request in the singular, with its status and query", () => {
      const text = afterSearch({ orgScope: "ORG-01", query: "badge reader", status: "open", total: 1, requests: [badgeReader] });
      expect(text).toMatch(/^I found 1 open work request in ORG-01 matching "badge reader": R-1042/);
    });

    it("says plainly when nothing matched", () => {
      const text = afterSearch({ orgScope: "ORG-02", query: "badge reader", status: "waiting_approval", total: 0, requests: [] });
      expect(text).toBe('There are no waiting approval work requests in ORG-02 matching "badge reader".');
    });
  });

  describe("after a close", () => {
    const afterClose = (output: unknown) =>
      workdeskPlaybook.respond(
        conversation({
          userText: "close R-1042 as fixed",
          turnsSinceUser: 1,
          results: [result("closeWorkRequest", { requestId: "R-1042", resolution: "fixed" }, output)],
        }),
      ).text;

    it("says the request is closed only when the result says so", () => {
      expect(afterClose({ closed: true, requestId: "R-1042", resolution: "fixed" })).toBe("R-1042 is closed (resolution: fixed).");
    });

    it("says a request was already closed, with how and when, and that it did not close it again", () => {
      const text = afterClose({ closed: false, alreadyClosed: true, requestId: "R-1042", resolution: "fixed", closedAt: "2026-12-01T10:00:00.000Z" });
      expect(text).toBe("R-1042 was already closed (resolution: fixed, closed 2026-12-01), so I didn't close it again.");
    });

    it("says it was already closed even when the records do not say how", () => {
      expect(afterClose({ closed: false, alreadyClosed: true, requestId: "R-1042", status: "closed" })).toBe(
        "R-1042 was already closed, so I didn't close it again.",
      );
    });

    it("says why a refused close did not work, from a Tether tool's error and from an ADK tool's (its message alone)", () => {
      const refused = (output: unknown) =>
        workdeskPlaybook.respond(
          conversation({
            userText: "close R-1042 as fixed",
            turnsSinceUser: 1,
            results: [result("closeWorkRequest", { requestId: "R-1042", resolution: "fixed" }, output, true)],
          }),
        ).text;
      const why = "R-1042 is high priority: only a manager can close it.";
      expect(refused({ error: { code: "forbidden", message: why } })).toBe(`That didn't work: ${why}`);
      expect(refused(why)).toBe(`That didn't work: ${why}`);
    });
  });

  describe("off the playbook", () => {
    it("greets back and says what it can do", () => {
      const text = said("hello").text ?? "";
      expect(text).toMatch(/^Hello!/);
      expect(text).toContain("open the work request list");
    });

    it("says it is the offline playbook model and how to use a real one when asked for help", () => {
      const text = said("what can you do?").text ?? "";
      expect(text).toMatch(/offline playbook model/);
      expect(text).toContain("TETHER_MODEL");
    });

    it("is honest about being a script when it does not understand, and calls no tool", () => {
      const turn = said("what's the weather in Seoul?");
      expect(turn.toolCalls ?? []).toEqual([]);
      expect(turn.text).toMatch(/offline playbook model/);
      expect(turn.text).toMatch(/didn't understand/);
      expect(turn.text).toContain("TETHER_MODEL");
    });
  });

  describe("before the browser reports an outcome", () => {
    const asks = [
      "open the work request list",
      "take me to R-1042",
      "show me approvals",
      "where is user administration?",
      "go to the dashboard",
      "open the quantum flux capacitor",
      "find closed requests",
      "hello",
      "help",
      "blorp",
    ];
    const everyone: WorkdeskUser[] = WORKDESK_USERS;

    it.each(asks)("never says the screen is open on the way to opening it, for %j", async (ask) => {
      for (const user of everyone) {
        for (const tools of [ALL_TOOLS, ["lookupScreens", "searchWorkRequests"]]) {
          const first = workdeskPlaybook.respond(conversation({ userText: ask, tools }));
          expect(first.text ?? "").not.toMatch(CLAIMS_OPEN);
          const lookup = first.toolCalls?.find((call) => call.toolName === "lookupScreens");
          if (!lookup) continue;
          const found = await lookupScreens((lookup.input as { query: string }).query, user, requests);
          const second = workdeskPlaybook.respond(
            conversation({ userText: ask, tools, turnsSinceUser: 1, results: [result("lookupScreens", lookup.input, found)] }),
          );
          expect(second.text ?? "").not.toMatch(CLAIMS_OPEN);
        }
      }
    });

    it("has the check above able to catch a claim", () => {
      expect("Work request list is open now.").toMatch(CLAIMS_OPEN);
      expect("Opening Work request list…").not.toMatch(CLAIMS_OPEN);
    });
  });
});

describe("the playbook model", () => {
  async function reply(prompt: LanguageModelV3Prompt): Promise<{ text: string; toolCalls: Array<{ toolName: string; input: string }> }> {
    const model = createPlaybookModel(workdeskPlaybook, { chunkDelayMs: 0 });
    const tools = ALL_TOOLS.map((name) => ({ type: "function" as const, name, inputSchema: { type: "object" as const } }));
    const { stream } = await model.doStream({ prompt, tools });
    let text = "";
    const toolCalls: Array<{ toolName: string; input: string }> = [];
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const part: LanguageModelV3StreamPart = value;
      if (part.type === "text-delta") text += part.delta;
      if (part.type === "tool-call") toolCalls.push({ toolName: part.toolName, input: part.input });
    }
    return { text, toolCalls };
  }

  const navigation: LanguageModelV3Prompt = [
    { role: "user", content: [{ type: "text", text: "open the work request list" }] },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", toolName: "lookupScreens", input: { query: "work request list" } }] },
    {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "call_1", toolName: "lookupScreens", output: { type: "json", value: KIM_LIST_LOOKUP as never } }],
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Opening Work request list…" },
        { type: "tool-call", toolCallId: "call_2", toolName: "navigateToScreen", input: listArgs },
      ],
    },
  ];

  it("streams the lookup call for a new request", async () => {
    const { text, toolCalls } = await reply([navigation[0]!]);
    expect(text).toBe("");
    expect(toolCalls).toEqual([{ toolName: "lookupScreens", input: JSON.stringify({ query: "work request list" }) }]);
  });

  it("streams 'Opening…' and the navigation call after the lookup result", async () => {
    const { text, toolCalls } = await reply(navigation.slice(0, 3));
    expect(text).toBe("Opening Work request list…");
    expect(toolCalls.map((call) => [call.toolName, JSON.parse(call.input)])).toEqual([["navigateToScreen", listArgs]]);
  });

  it("speaks from the outcome in the browser's tool message, using the arguments of the call it answers", async () => {
    const answered: LanguageModelV3Prompt = [
      ...navigation,
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_2",
            toolName: "navigateToScreen",
            output: { type: "text", value: JSON.stringify({ status: "failed", reason: "access_denied" }) },
          },
        ],
      },
    ];
    const { text, toolCalls } = await reply(answered);
    expect(toolCalls).toEqual([]);
    expect(text).toMatch(/^I couldn't open Work request list: your account doesn't have access/);
  });

  it("says the screen is open only once the browser reported it displayed", async () => {
    const answered: LanguageModelV3Prompt = [
      ...navigation,
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_2",
            toolName: "navigateToScreen",
            output: { type: "json", value: { status: "succeeded", stage: "displayed" } },
          },
        ],
      },
    ];
    expect((await reply(answered)).text).toBe("Work request list is open now.");
  });
});
