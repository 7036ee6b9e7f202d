import type { Interrupt } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { sessionStatus } from "./session-status.ts";

const interrupt = { id: "int_1", reason: "approval" } as Interrupt;
const error = { code: "model_error" as const, message: "The model failed." };
const idle = { running: false, observing: false, interrupts: [] as Interrupt[] };

describe("sessionStatus", () => {
  it("is idle when nothing runs, waits or failed", () => {
    expect(sessionStatus(idle)).toBe("idle");
  });

  it("is running while a run this page started streams", () => {
    expect(sessionStatus({ ...idle, running: true })).toBe("running");
  });

  it("is observing while following a run this page did not start", () => {
    expect(sessionStatus({ ...idle, running: true, observing: true })).toBe("observing");
  });

  it("is awaiting-approval when the agent waits on an answer", () => {
    expect(sessionStatus({ ...idle, interrupts: [interrupt] })).toBe("awaiting-approval");
  });

  it("is error when the last run failed", () => {
    expect(sessionStatus({ ...idle, error })).toBe("error");
  });

  it("prefers a run going over an error or an open approval left by the last one", () => {
    expect(sessionStatus({ ...idle, running: true, interrupts: [interrupt], error })).toBe("running");
  });

  it("prefers an open approval over an error, since the person can act on it", () => {
    expect(sessionStatus({ ...idle, interrupts: [interrupt], error })).toBe("awaiting-approval");
  });
});
