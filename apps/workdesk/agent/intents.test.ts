import { describe, expect, it } from "vitest";
import { readIntent } from "./intents.ts";

describe("readIntent", () => {
  it.each(["show R-1042 as a card", "Show me request r1042 as a card", "display R-1042 as a card please"])("reads %j as a card of R-1042", (said) => {
    expect(readIntent(said)).toEqual({ kind: "card", requestId: "R-1042" });
  });

  describe("asking to go somewhere", () => {
    it.each([
      ["open the work request list", "work request list"],
      ["Go to the dashboard", "dashboard"],
      ["take me to R-1042", "r-1042"],
      ["show me approvals", "approvals"],
      ["I need the request list", "request list"],
      ["where is user administration?", "user administration"],
      ["can you open the dashboard please", "dashboard"],
      ["bring up my requests", "requests"],
      ["Navigate to the work request list.", "work request list"],
      ["Open the work request list, please", "work request list"],
      ["take me to the request list screen?", "request list"],
      ["go to the dashboard page please", "dashboard"],
      ["show me the work request list page", "work request list"],
      ["where can i find the new work request form", "new work request form"],
      ["open up the dashboard", "dashboard"],
    ])("reads %j as a request to open %j", (said, target) => {
      expect(readIntent(said)).toEqual({ kind: "navigate", target });
    });

    it("keeps the record id in the target so the lookup can find the request", () => {
      expect(readIntent("where is R-1042?")).toEqual({ kind: "navigate", target: "r-1042" });
    });

    it("does not treat a bare verb as a place to go", () => {
      expect(readIntent("open")).toEqual({ kind: "unknown" });
      expect(readIntent("show me")).toEqual({ kind: "unknown" });
    });

    // Polite and indirect openings people type every day fall through to "I didn't understand that".
    it.each([
      ["Could you please open the dashboard?"],
      ["can you please open the dashboard"],
      ["please take me to the dashboard"],
      ["can you show me the dashboard"],
      ["could you take me to the dashboard"],
      ["i want to open the dashboard"],
      ["i'd like to see the dashboard"],
      ["pull up the dashboard"],
      ["where's the dashboard"],
    ])("understands %j as a request to open the dashboard", (said) => {
      expect(readIntent(said)).toEqual({ kind: "navigate", target: "dashboard" });
    });

    it("strips every trailing courtesy word, not only the last one", () => {
      expect(readIntent("open the dashboard for me please")).toEqual({ kind: "navigate", target: "dashboard" });
    });

    it("acts on a request that follows a greeting instead of only greeting back", () => {
      expect(readIntent("hi, open the dashboard")).toEqual({ kind: "navigate", target: "dashboard" });
    });

    it.each([
      ["open the work request list in a new tab", "work request list"],
      ["Open the work request list in a new tab, please", "work request list"],
      ["take me to R-1042 in a new window", "r-1042"],
      ["show me approvals on a new tab", "approvals"],
    ])("reads %j as a request to open %j in a new tab", (said, target) => {
      expect(readIntent(said)).toEqual({ kind: "navigate", target, newTab: true });
    });

    it("asks for no new tab unless the user says so", () => {
      expect(readIntent("open the work request list")).not.toHaveProperty("newTab");
    });

    it("opens a screen when asked to find it by its screen or page name", () => {
      expect(readIntent("find the dashboard page")).toEqual({ kind: "navigate", target: "dashboard" });
    });
  });

  describe("asking to find work requests", () => {
    it.each([
      ["find closed requests", { query: "", status: "closed" }],
      ["find open badge reader requests", { query: "badge reader", status: "open" }],
      ["find requests in progress", { query: "", status: "in_progress" }],
      ["find in-progress requests", { query: "", status: "in_progress" }],
      ["search for badge reader", { query: "badge reader" }],
      ["look for closed requests", { query: "", status: "closed" }],
      ["look for requests about the printer", { query: "printer" }],
      ["find requests waiting for approval", { query: "", status: "waiting_approval" }],
      ["find requests awaiting approval", { query: "", status: "waiting_approval" }],
      ["find me all closed tickets", { query: "", status: "closed" }],
      ["list open requests", { query: "", status: "open" }],
      ["search for R-1042", { query: "r-1042" }],
    ])("reads %j as a search for %j", (said, search) => {
      expect(readIntent(said)).toEqual({ kind: "search", ...search });
    });

    it("searches everything when no words or status are given", () => {
      expect(readIntent("list all requests")).toEqual({ kind: "search", query: "" });
    });

    it("does not search for the word please", () => {
      expect(readIntent("find open requests please")).toEqual({ kind: "search", query: "", status: "open" });
    });

    it("reads a question about requests with a status as a search", () => {
      expect(readIntent("any open requests?")).toEqual({ kind: "search", query: "", status: "open" });
    });

    it("reads 'show me' with a status as a filtered search, not as opening the unfiltered list", () => {
      expect(readIntent("show me closed requests")).toEqual({ kind: "search", query: "", status: "closed" });
    });
  });

  describe("small talk and the rest", () => {
    it.each(["hi", "Hello there", "hey!", "good morning"])("greets back on %j", (said) => {
      expect(readIntent(said)).toEqual({ kind: "greet" });
    });

    it.each(["help", "what can you do?", "who are you", "What are you?"])("offers help on %j", (said) => {
      expect(readIntent(said)).toEqual({ kind: "help" });
    });

    it.each(["asdf qwerty", "blorp", "", "   ", "?!"])("admits it does not understand %j", (said) => {
      expect(readIntent(said)).toEqual({ kind: "unknown" });
    });
  });
});
