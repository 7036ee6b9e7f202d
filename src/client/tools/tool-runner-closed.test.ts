import { EventType, type Event } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { RUN, call, ev, page, succeeded } from "../../../test/fixtures/tool-runner-page.ts";

// The runner and the server's marks on a call: closed never to run, or held for a person's approval.
describe("createToolRunner", () => {
  describe("calls the server closed or holds", () => {
    it("never runs a call whose TOOL_CALL_END says the server closed it (a cancel cut its arguments off)", () => {
      const p = page();
      p.feed([
        ev.runStarted(),
        ev.start("c1"),
        ev.args("c1", '{"screenId":"MNU-3120"}'),
        { type: EventType.TOOL_CALL_END, toolCallId: "c1", metadata: { tether: { doNotRun: "cancelled" } } } as Event,
      ]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(p.runner.activities()).toEqual([expect.objectContaining({ toolCallId: "c1", status: "cancelled" })]);
    });

    it("never runs a call to a tool the server does not offer this run, though this page has an executor of that name", () => {
      const p = page();
      p.feed([
        ev.runStarted(),
        ev.start("c1"),
        ev.args("c1", '{"screenId":"MNU-3120"}'),
        { type: EventType.TOOL_CALL_END, toolCallId: "c1", metadata: { tether: { doNotRun: "not_allowed" } } } as Event,
      ]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(p.runner.activities()).toEqual([
        expect.objectContaining({ toolCallId: "c1", status: "cancelled", message: "Not allowed in this conversation; it did not run." }),
      ]);
    });

    it("never runs a call the server marks as the upstream agent's own, and says whose it is", () => {
      const p = page();
      p.feed([
        ev.runStarted(),
        ev.start("c1"),
        ev.args("c1", '{"screenId":"MNU-3120"}'),
        { type: EventType.TOOL_CALL_END, toolCallId: "c1", metadata: { tether: { doNotRun: "upstream" } } } as Event,
      ]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(p.runner.activities()).toEqual([
        expect.objectContaining({ toolCallId: "c1", status: "cancelled", message: "The agent's own tool, not this page's; it did not run." }),
      ]);
    });

    it("never runs a call whose arguments the server refused, and says so", () => {
      const p = page();
      p.feed([
        ev.runStarted(),
        ev.start("c1"),
        ev.args("c1", '{"screenId":5}'),
        { type: EventType.TOOL_CALL_END, toolCallId: "c1", metadata: { tether: { doNotRun: "invalid_arguments" } } } as Event,
      ]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(p.runner.activities()).toEqual([
        expect.objectContaining({ toolCallId: "c1", status: "cancelled", message: "Its arguments were refused; it did not run." }),
      ]);
    });

    it("holds a call awaiting approval, and runs it once when it comes back pending", async () => {
      const p = page();
      p.feed([
        ev.runStarted(),
        ev.start("c1"),
        ev.args("c1", '{"screenId":"MNU-3120"}'),
        { type: EventType.TOOL_CALL_END, toolCallId: "c1", metadata: { tether: { awaitsApproval: true } } } as Event,
      ]);
      expect(p.execute).not.toHaveBeenCalled();
      expect(p.runner.activities()).toEqual([expect.objectContaining({ toolCallId: "c1", status: "awaiting" })]);
      const [settled] = await p.runner.settle(["c1"]);
      expect(settled!.outcome).toEqual(succeeded);
      expect(p.execute).toHaveBeenCalledTimes(1);
    });

    it("knows which calls it performed that the server has no result for", () => {
      const p = page();
      p.feed([ev.runStarted(), ...call("c1", { screenId: "MNU-3120" }), ...call("c2", { query: "x" }, "lookupScreens"), ev.result("c2", "{}"), ev.runError()]);
      expect(p.runner.performedWithoutResult(RUN)).toEqual(["c1"]);
    });
  });
});
