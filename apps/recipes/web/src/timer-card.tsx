import type { CSSProperties } from "react";
import { clock, useNow } from "./countdown.ts";
import type { KitchenTimer, KitchenTimers } from "./kitchen-timers.ts";

/** One countdown: its label, the time left (mm:ss), Cancel while it runs, and a done state to clear. */
export function TimerCard({ timer, timers, size = "normal" }: { timer: KitchenTimer; timers: KitchenTimers; size?: "normal" | "big" | "chip" }) {
  // Ticks until the countdown is done; a done one stays still.
  const now = useNow(timer.endsAt > Date.now());
  const left = (timer.endsAt - now) / 1000;
  const done = left <= 0;
  const progress = Math.min(1, Math.max(0, 1 - left / timer.seconds));
  return (
    <section className={`timer timer--${size} ${done ? "timer--done" : ""}`} aria-label={`Timer: ${timer.label}`}>
      <div className="timer__ring" style={{ "--progress": progress } as CSSProperties} aria-hidden="true" />
      <div className="timer__body">
        <p className="timer__label">{timer.label}</p>
        <p className="timer__time" role="timer" aria-live="off" aria-label={done ? "Time's up" : `${clock(left)} left`}>
          {done ? "Done!" : clock(left)}
        </p>
      </div>
      <button type="button" className="timer__action" onClick={() => timers.remove(timer.id)}>
        {done ? "Clear" : "Cancel"}
        <span className="visually-hidden"> timer {timer.label}</span>
      </button>
    </section>
  );
}
