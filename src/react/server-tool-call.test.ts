import { describe, expect, it } from "vitest";
import type { ToolActivity } from "../client/index.ts";
import { serverToolCallView } from "./server-tool-call.ts";

const activity = (status: ToolActivity["status"], more: Partial<ToolActivity> = {}): ToolActivity => ({
  toolCallId: "call_1",
  toolName: "get_weather",
  runId: "r1",
  location: "server",
  status,
  ...more,
});

describe("serverToolCallView", () => {
  it("is streaming while the arguments are incomplete, with what has arrived read best effort", () => {
    expect(serverToolCallView(activity("calling"), undefined, undefined)).toEqual({
      toolCallId: "call_1",
      toolName: "get_weather",
      status: "streaming",
      partialArgs: undefined,
      args: undefined,
      result: undefined,
      activityStatus: "calling",
    });
    expect(serverToolCallView(activity("calling"), '{"location":"San Fr', undefined)).toMatchObject({
      status: "streaming",
      partialArgs: { location: "San Fr" },
      args: undefined,
    });
  });

  it("is running once the arguments are a whole object, before any result, and while it awaits an approval", () => {
    const running = serverToolCallView(activity("calling"), '{"location":"San Francisco"}', undefined);
    expect(running).toMatchObject({ status: "running", args: { location: "San Francisco" }, partialArgs: { location: "San Francisco" }, result: undefined });
    expect(serverToolCallView(activity("awaiting"), '{"location":"Paris"}', undefined)).toMatchObject({ status: "running", activityStatus: "awaiting" });
  });

  it("is done with the result, JSON text parsed, other text and objects as they came", () => {
    const weather = { temperature: 18, conditions: "Clear" };
    expect(serverToolCallView(activity("done"), '{"location":"Paris"}', JSON.stringify(weather))).toMatchObject({
      status: "done",
      args: { location: "Paris" },
      result: weather,
    });
    expect(serverToolCallView(activity("done"), '{"location":"Paris"}', weather).result).toEqual(weather);
    expect(serverToolCallView(activity("done"), '{"location":"Paris"}', "Sunny, 18 degrees").result).toBe("Sunny, 18 degrees");
    expect(serverToolCallView(activity("done"), "", "{}")).toMatchObject({ status: "done", args: {} }); // called without arguments
  });

  it("is failed with the reason in words when the result is an error or the call was not done", () => {
    // The timeline reads `{ error }` results (Tether's and ADK's shapes) as `error`, with the message.
    expect(serverToolCallView(activity("error", { message: "Unknown city" }), '{"location":"Atlantis"}', '{"error":"Unknown city"}')).toMatchObject({
      status: "failed",
      error: "Unknown city",
      result: { error: "Unknown city" },
      args: { location: "Atlantis" },
    });
    expect(serverToolCallView(activity("rejected", { message: "You rejected it." }), "{}", undefined)).toMatchObject({
      status: "failed",
      error: "You rejected it.",
      activityStatus: "rejected",
    });
    expect(serverToolCallView(activity("unknown"), "{}", undefined)).toMatchObject({ status: "failed", error: "It did not finish." });
  });
});
