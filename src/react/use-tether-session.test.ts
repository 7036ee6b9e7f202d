import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../client/index.ts";
import { createMemoryStorage } from "../testing/index.ts";
import { TetherProvider } from "./tether-provider.tsx";
import { useSessionStatus } from "./use-session-status.ts";
import { useTetherSession } from "./use-tether-session.ts";

const session = createAgentSession({ api: "/api", agentId: "assistant", threadId: "thread_1", storage: createMemoryStorage(), drift: "ignore" });

function ThreadId() {
  return createElement("p", null, useTetherSession().threadId);
}

function Status() {
  return createElement("p", null, useSessionStatus());
}

describe("useTetherSession", () => {
  it("gives the session of the nearest TetherProvider", () => {
    expect(renderToStaticMarkup(createElement(TetherProvider, { session }, createElement(ThreadId)))).toBe("<p>thread_1</p>");
  });

  it("throws an error naming TetherProvider outside one", () => {
    expect(() => renderToStaticMarkup(createElement(ThreadId))).toThrow(/useTetherSession\(\) found no session: render this component inside <TetherProvider/);
  });
});

describe("useSessionStatus", () => {
  it("reads the provider's session status", () => {
    expect(renderToStaticMarkup(createElement(TetherProvider, { session }, createElement(Status)))).toBe("<p>idle</p>");
  });
});
