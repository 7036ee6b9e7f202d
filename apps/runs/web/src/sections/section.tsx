import type { ReactNode } from "react";
import { runHref } from "../links.ts";

/** A part of the run's timeline: a region named by its heading. */
export function Section({ id, title, count, children }: { id: string; title: string; count?: number; children: ReactNode }) {
  return (
    <section className="section" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>
        {title}
        {count !== undefined ? <span className="section__count"> ({count})</span> : null}
      </h3>
      {children}
    </section>
  );
}

/** "led to run X": a link to the run a report or an answer started. */
export function RunLink({ runId, threadId, label = "led to run" }: { runId: string; threadId: string; label?: string }) {
  return (
    <a className="run-link" href={runHref(runId, threadId)}>
      {label} <code>{runId}</code>
    </a>
  );
}
