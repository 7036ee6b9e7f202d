import type { ReactNode } from "react";
import { AssistantPanel, useSessionState, useSessionStatus, useTetherSession } from "@tether-agent/tether/react";
import type { Recipe } from "./api.ts";
import { useKitchenTimers, type KitchenTimers } from "./kitchen-timers.ts";
import { RecipeView } from "./recipe-view.tsx";
import { TimerCard } from "./timer-card.tsx";
import type { Device } from "./use-device.ts";

export interface OpenRecipe {
  recipe?: Recipe;
  error?: string;
  step: number;
}

/**
 * The assistant beside the kitchen: on a desktop the conversation (cards
 * three in a row) beside the open recipe; on a phone one column, the recipe's
 * current step and a big timer above the conversation.
 */
export function KitchenPage(props: {
  device: Device;
  signedIn: boolean;
  open: OpenRecipe | undefined;
  timers: KitchenTimers;
  model: string | undefined;
  onStep(step: number): void;
  onClose(): void;
}) {
  const { device, open, timers } = props;
  const running = useKitchenTimers(timers);
  // A phone shows how to start only until the conversation does: the screen is small.
  const talking = useSessionState(useTetherSession()).messages.length > 0;
  const stage: ReactNode[] = [];
  if (running.length > 0)
    stage.push(
      <div key="timers" className="timers">
        {running.map((timer) => (
          <TimerCard key={timer.id} timer={timer} timers={timers} size={device === "mobile" ? "big" : "normal"} />
        ))}
      </div>,
    );
  if (open?.recipe) stage.push(<RecipeView key="recipe" recipe={open.recipe} step={open.step} device={device} onStep={props.onStep} onClose={props.onClose} />);
  else if (open?.error)
    stage.push(
      <p key="error" className="stage__error" role="alert">
        {open.error}
      </p>,
    );
  else if (open) stage.push(<p key="loading">Opening the recipe…</p>);
  else if (device === "desktop" || !talking) stage.push(<Welcome key="welcome" signedIn={props.signedIn} />);
  return (
    <div className={`kitchen kitchen--${device}`}>
      {stage.length > 0 ? (
        <section className="stage" aria-label="Kitchen">
          {stage}
        </section>
      ) : null}
      <AssistantPanel
        title="Kitchen assistant"
        subtitle={props.model}
        placeholder={device === "mobile" ? "Ask about recipes…" : "Ask for ideas, swaps, or what to do next…"}
      />
    </div>
  );
}

const IDEAS = ["Something quick with leftover rice?", "A vegetarian soup", "What can I use instead of eggs?"];

/** The empty kitchen: how to start, with a few questions to send. */
function Welcome({ signedIn }: { signedIn: boolean }) {
  const session = useTetherSession();
  const status = useSessionStatus();
  const busy = status === "running" || status === "observing";
  return (
    <div className="welcome">
      <p className="welcome__kicker">What's cooking?</p>
      <h1>Ask for ideas, then pick a card to cook it here.</h1>
      <p className="welcome__hint">
        The open recipe and the step you are on travel with every question, so “save it” or “order the ingredients for 4” know which one you mean.
        {signedIn ? "" : " As a guest you can browse; sign in (Sam or Vera) to save recipes and order ingredients."}
      </p>
      <ul className="welcome__ideas" aria-label="Try asking">
        {IDEAS.map((idea) => (
          <li key={idea}>
            <button type="button" disabled={busy} onClick={() => void session.send(idea).catch(() => {})}>
              {idea}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
