import type { RunAgentInput } from "@ag-ui/core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { gate, runEvents, scriptedSse } from "../../test/helpers/scripted-sse.ts";
import { createAgentSession, type AgentSession } from "../client/index.ts";
import { createMemoryStorage } from "../testing/index.ts";
import { TetherProvider } from "./tether-provider.tsx";
import { useAgentState } from "./use-agent-state.ts";
import { useSessionState } from "./use-session-state.ts";

type Recipe = { title?: string; servings?: number };

const TOKENS = ["Leek ", "soup ", "serves ", "four."];

/** A session whose one run streams a snapshot, then an answer token by token, each token waiting at its gate. */
function streamingSession(threadId: string) {
  const gates = TOKENS.map(() => gate());
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    const input = JSON.parse(String(init?.body)) as RunAgentInput;
    const [start, ...rest] = runEvents.text("answer", TOKENS);
    const tokens = rest.slice(0, -1).flatMap((event, index) => [gates[index]!.opened, event]);
    return scriptedSse(input.runId, [
      runEvents.started(input),
      runEvents.snapshot({ title: "Soup" }),
      start!,
      ...tokens,
      rest.at(-1)!,
      runEvents.finished(input),
    ]);
  };
  const session = createAgentSession({ runUrl: "http://agent.test/run", threadId, storage: createMemoryStorage(), drift: "ignore", fetch });
  return { session, gates };
}

/** Renders `component` under the session's provider; returns the markup and what the component's hook gave it. */
function render<T>(session: AgentSession, hook: () => T, show: (value: T) => string): { html: string; value: T } {
  let value!: T;
  const Component = () => {
    value = hook();
    return createElement("p", null, show(value));
  };
  const html = renderToStaticMarkup(createElement(TetherProvider, { session }, createElement(Component)));
  return { html, value };
}

describe("useAgentState", () => {
  it("reads the provider's session's shared state, and its setter changes it at once", () => {
    const session = createAgentSession({ runUrl: "http://agent.test/run", threadId: "hook-1", storage: createMemoryStorage(), drift: "ignore" });
    const first = render(
      session,
      () => useAgentState<Recipe>(),
      ([recipe]) => recipe.title ?? "untitled",
    );
    expect(first.html).toBe("<p>untitled</p>");
    const [, setRecipe] = first.value;
    setRecipe((current) => ({ ...current, title: "Leek soup" }));
    setRecipe((current) => ({ ...current, servings: 4 }));
    expect(
      render(
        session,
        () => useAgentState<Recipe>(),
        ([recipe]) => `${recipe.title} for ${recipe.servings}`,
      ).html,
    ).toBe("<p>Leek soup for 4</p>");
    expect(session.getState().state).toEqual({ title: "Leek soup", servings: 4 });
  });

  it("throws an error naming TetherProvider outside one", () => {
    expect(() => renderToStaticMarkup(createElement(() => createElement("p", null, String(useAgentState()[0]))))).toThrow(/TetherProvider/);
  });

  it("selects a state object that stays the same while the answer streams, so a component showing only state is not rendered per token", async () => {
    const { session, gates } = streamingSession("hook-2");
    const seen = { states: new Set<unknown>(), answers: new Set<string>() };
    session.subscribe(() => {
      // What useAgentState's selector hands React at each notification: React renders again only when it is another object.
      const [state] = render(
        session,
        () => useAgentState<Recipe>(),
        () => "",
      ).value;
      if (state.title) seen.states.add(state);
      seen.answers.add(String(session.getState().messages.at(-1)?.content));
    });
    const sending = session.send("a soup, please");
    for (const [index, token] of gates.entries()) {
      token.open();
      await expect.poll(() => seen.answers).toContain(TOKENS.slice(0, index + 1).join(""));
    }
    await sending;
    expect(seen.answers.size).toBeGreaterThanOrEqual(TOKENS.length); // the answer streamed a notification per token…
    expect(seen.states.size).toBe(1); // …and the state the hook selects stayed one object
    expect(
      render(
        session,
        () => useSessionState(session, (state) => state.state),
        (state) => String((state as Recipe).title),
      ).html,
    ).toBe("<p>Soup</p>");
  });
});
