import { useState, type ReactNode } from "react";

/**
 * The shared document: read as simple markdown (headings, lists,
 * paragraphs; text only, nothing the agent writes becomes HTML) and growing
 * while the agent writes it; editable as text when the agent is not writing.
 */
export function DocumentView(props: { document: string; writing: boolean; onEdit(document: string): void }) {
  const [editing, setEditing] = useState(false);
  const edit = editing && !props.writing;
  return (
    <div className="document">
      <div className="stage__bar">
        <p role="status" className="stage__status">
          {props.writing ? "The agent is writing…" : props.document ? "" : "Empty. Ask for a story and watch it appear here as it is written."}
        </p>
        <button type="button" aria-pressed={edit} disabled={props.writing} onClick={() => setEditing(!editing)}>
          {edit ? "Done editing" : "Edit"}
        </button>
      </div>
      {edit ? (
        <textarea className="document__editor" aria-label="Document text" value={props.document} onChange={(event) => props.onEdit(event.target.value)} />
      ) : (
        <article className={`document__page${props.writing ? " document__page--writing" : ""}`} aria-label="Document">
          {blocks(props.document)}
        </article>
      )}
    </div>
  );
}

function blocks(document: string): ReactNode[] {
  return document
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block, index) => {
      const heading = /^(#{1,3})\s+(.*)$/s.exec(block);
      if (heading) return heading[1]!.length === 1 ? <h2 key={index}>{heading[2]}</h2> : <h3 key={index}>{heading[2]}</h3>;
      const lines = block.split("\n");
      if (lines.every((line) => /^\s*[-*]\s+/.test(line))) {
        return (
          <ul key={index}>
            {lines.map((line, at) => (
              <li key={at}>{line.replace(/^\s*[-*]\s+/, "")}</li>
            ))}
          </ul>
        );
      }
      return <p key={index}>{block}</p>;
    });
}
