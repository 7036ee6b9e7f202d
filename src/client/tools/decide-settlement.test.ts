import { describe, expect, it } from "vitest";
import type { ToolOutcome } from "../../protocol/index.ts";
import type { JournalEntry } from "./call-journal.ts";
import { decideSettlement } from "./decide-settlement.ts";
import type { TrackedCall } from "./tool-call-tracker.ts";
import type { BrowserToolHandler } from "./tool-registry.ts";
import { RUN, call, ev, navigateToScreen, outcomeOf, page, succeeded } from "../../../test/fixtures/tool-runner-page.ts";

const handler: BrowserToolHandler = { spec: navigateToScreen, execute: () => succeeded };
const tracked = (fields: Partial<TrackedCall> = {}): TrackedCall => ({
  toolCallId: "a",
  toolName: navigateToScreen.name,
  runId: RUN,
  args: "{}",
  ended: true,
  ...fields,
});
const started: JournalEntry = { runId: RUN, toolName: navigateToScreen.name, state: "started" };
const decide = (input: Partial<Parameters<typeof decideSettlement>[0]>) =>
  decideSettlement({ toolName: navigateToScreen.name, call: undefined, entry: undefined, handler, ...input });

describe("decideSettlement", () => {
  it("keeps the outcome the journal finished with, whatever else is known", () => {
    const outcome: ToolOutcome = { status: "succeeded", stage: "switched" };
    expect(decide({ entry: { ...started, state: "finished", outcome }, call: tracked({ late: true }), handler: undefined })).toEqual({
      kind: "journaled",
      outcome,
    });
  });

  it("owes failed / executor_failed when the page has no executor for the tool", () => {
    expect(decide({ handler: undefined, toolName: "gone" })).toEqual({
      kind: "owed",
      outcome: { status: "failed", reason: "executor_failed", message: "This page has no executor for gone." },
    });
  });

  it("owes cancelled for a call whose END came after its run ended", () => {
    expect(decide({ call: tracked({ late: true }) })).toMatchObject({
      kind: "owed",
      outcome: { status: "cancelled", message: expect.stringMatching(/after its run had ended/) },
    });
  });

  it("executes a call held for approval that this tab never started", () => {
    const call = tracked({ awaiting: true });
    expect(decide({ call })).toEqual({ kind: "execute", call, handler, again: false });
    expect(decide({ call, entry: started })).toMatchObject({ kind: "owed", outcome: { status: "unknown", reason: "page_reloaded" } });
  });

  it("executes again a call a reload interrupted when its tool says run-again", () => {
    const again = { ...handler, onReload: "run-again" as const };
    const call = tracked();
    expect(decide({ call, entry: started, handler: again })).toEqual({ kind: "execute", call, handler: again, again: true });
    expect(decide({ call: tracked({ ended: false }), entry: started, handler: again })).toMatchObject({ kind: "owed", outcome: { status: "unknown" } });
  });

  it("owes unknown / page_reloaded for a call started before the reload, cancelled / page_reloaded for one never started", () => {
    expect(decide({ entry: started })).toMatchObject({
      kind: "owed",
      outcome: { status: "unknown", reason: "page_reloaded", message: expect.stringMatching(/may or may not have happened/) },
    });
    expect(decide({ call: tracked() })).toMatchObject({
      kind: "owed",
      outcome: { status: "cancelled", reason: "page_reloaded", message: expect.stringMatching(/did not happen/) },
    });
  });
});

// Through the runner: what a reloaded page reports, and what its journal and timeline keep.
describe("createToolRunner, settling after a reload", () => {
  const events = [ev.runStarted(), ...call("a", { screenId: "MNU-1" })];

  it("settles a call journaled as started but never finished as unknown / page_reloaded", async () => {
    const first = page();
    first.journal.start("a", { runId: RUN, toolName: navigateToScreen.name }); // the executor was about to run when the tab reloaded
    const second = first.reload();
    second.feed(events, { live: false });
    expect(await outcomeOf(second.runner, "a")).toMatchObject({ status: "unknown", reason: "page_reloaded" });
    expect(second.execute).not.toHaveBeenCalled();
    expect(second.journal.get("a")).toMatchObject({ state: "finished", outcome: { status: "unknown", reason: "page_reloaded" } });
  });

  it("settles a started call as unknown even when its events were not replayed", async () => {
    const first = page();
    first.journal.start("a", { runId: RUN, toolName: navigateToScreen.name });
    const second = first.reload();
    expect(await second.runner.settle(["a"])).toEqual([
      { toolCallId: "a", toolName: navigateToScreen.name, kind: "follow-up", outcome: expect.objectContaining({ status: "unknown", reason: "page_reloaded" }) },
    ]);
  });

  it("settles a call this tab never started as cancelled / page_reloaded", async () => {
    const p = page().reload();
    p.feed(events, { live: false });
    expect(await outcomeOf(p.runner, "a")).toMatchObject({ status: "cancelled", reason: "page_reloaded" });
    expect(p.execute).not.toHaveBeenCalled();
  });

  it("runs a known call again when its tool says run-again", async () => {
    const first = page({ handler: { onReload: "run-again" } });
    first.journal.start("a", { runId: RUN, toolName: navigateToScreen.name });
    const second = first.reload();
    second.feed(events, { live: false });
    expect(second.execute).not.toHaveBeenCalled();
    expect(await outcomeOf(second.runner, "a")).toEqual(succeeded);
    expect(second.executed()).toEqual([["a", { screenId: "MNU-1" }]]);
    expect(second.journal.get("a")).toMatchObject({ state: "finished", outcome: succeeded });
  });

  it("settles a finished call with its stored outcome, without executing it again", async () => {
    const first = page({ handler: { onReload: "run-again" }, execute: () => ({ status: "succeeded", stage: "switched" }) });
    first.feed(events);
    await first.runner.settle(["a"]);
    const second = first.reload();
    second.feed(events, { live: false });
    expect(await outcomeOf(second.runner, "a")).toEqual({ status: "succeeded", stage: "switched" });
    expect(second.execute).not.toHaveBeenCalled();
    expect(first.execute).toHaveBeenCalledTimes(1);
  });

  it("settles the same way after a second reload", async () => {
    const first = page();
    first.journal.start("a", { runId: RUN, toolName: navigateToScreen.name });
    const second = first.reload();
    const outcome = await outcomeOf(second.runner, "a");
    const third = second.reload({ handler: { onReload: "run-again" } });
    third.feed(events, { live: false });
    expect(await outcomeOf(third.runner, "a")).toEqual(outcome);
    expect(third.execute).not.toHaveBeenCalled();
  });
});
