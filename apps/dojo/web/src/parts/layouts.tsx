import type { CSSProperties, ReactNode } from "react";

/** What every feature page gets: the assistant panel, to place in its layout. */
export interface PageProps {
  panel: ReactNode;
}

/**
 * The page's own view beside the conversation (below it on a phone): the
 * progress list, the recipe, the document. A region named after what it shows.
 */
export function SplitLayout({ label, stage, panel }: { label: string; stage: ReactNode; panel: ReactNode }) {
  return (
    <div className="split">
      <section className="stage" aria-label={label}>
        {stage}
      </section>
      {panel}
    </div>
  );
}

/** The conversation alone, centred on a backdrop the page may colour (the dojo's chat pages). */
export function ChatLayout(props: { label: string; panel: ReactNode; style?: CSSProperties; aside?: ReactNode }) {
  return (
    <section className="backdrop" aria-label={props.label} style={props.style}>
      {props.aside}
      <div className="backdrop__chat">{props.panel}</div>
    </section>
  );
}
