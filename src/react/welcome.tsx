import { useEffect, useState } from "react";
import type { AgentWelcome } from "../protocol/index.ts";
import { useSessionState } from "./use-session-state.ts";
import { useTetherSession } from "./use-tether-session.ts";

/**
 * Before the first message: the agent's greeting and its suggested messages
 * (from its capabilities), each sent with one click, so a newcomer knows
 * what to ask. Gone once the conversation has begun.
 */
export function Welcome() {
  const session = useTetherSession();
  const state = useSessionState(session);
  const [welcome, setWelcome] = useState<AgentWelcome>();
  useEffect(() => {
    let current = true;
    void session.welcome().then((offered) => current && setWelcome(offered));
    return () => {
      current = false;
    };
  }, [session]);
  if (!welcome || state.messages.length > 0 || state.running) return null;
  return (
    <div className="tether-welcome">
      {welcome.greeting ? <p className="tether-welcome__greeting">{welcome.greeting}</p> : null}
      {welcome.suggestions?.length ? (
        <ul className="tether-welcome__suggestions" aria-label="Suggestions">
          {welcome.suggestions.map((suggestion) => (
            <li key={suggestion}>
              <button type="button" onClick={() => void session.send(suggestion).catch(() => {})}>
                {suggestion}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
