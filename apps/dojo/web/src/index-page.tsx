import { FEATURES } from "./features.ts";
import { followLink, hrefOf } from "./router.ts";

/** The dojo's features, one card each, linking to its page. */
export function IndexPage() {
  return (
    <main className="index" aria-labelledby="index-title">
      <h1 id="index-title">The AG-UI dojo's features, on Tether</h1>
      <p className="index__intro">
        Each page talks to the Tether agent of the same id (<code>POST /api/agents/&lt;feature&gt;/run</code>) and is built from Tether's own React parts: no
        CopilotKit.
      </p>
      <ul className="index__features" aria-label="Features">
        {FEATURES.map((feature) => (
          <li key={feature.id}>
            <a href={hrefOf(`/${feature.id}`)} onClick={followLink(`/${feature.id}`)}>
              <span className="index__title">{feature.title}</span>
              <code className="index__id">{feature.id}</code>
              <span className="index__summary">{feature.summary}</span>
              <span className="index__parts">{feature.parts}</span>
            </a>
          </li>
        ))}
      </ul>
    </main>
  );
}
