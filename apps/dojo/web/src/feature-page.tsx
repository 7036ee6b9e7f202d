import { useEffect, useState } from "react";
import { AssistantPanel, TetherProvider } from "@tether-agent/tether/react";
import type { FeatureInfo } from "./features.ts";
import { PAGES } from "./pages/index.ts";
import { followLink, hrefOf } from "./router.ts";
import { createDojoSession } from "./session.ts";
import { useModelLabel } from "./use-model-label.ts";

/** A feature's page: its conversation with the agent of the same id, and "New conversation" to start another. */
export function FeaturePage({ feature }: { feature: FeatureInfo }) {
  const [conversation, setConversation] = useState(0);
  return <FeatureSession key={conversation} feature={feature} fresh={conversation > 0} onNewConversation={() => setConversation((count) => count + 1)} />;
}

/** One conversation: the session (restored after a reload), the page's own parts, and the assistant panel. */
function FeatureSession({ feature, fresh, onNewConversation }: { feature: FeatureInfo; fresh: boolean; onNewConversation(): void }) {
  const [session] = useState(() => createDojoSession(feature.id, fresh));
  useEffect(() => {
    void session.restore();
  }, [session]);
  const model = useModelLabel(feature.id);
  const Page = PAGES[feature.id];
  return (
    <main className="feature" aria-labelledby="feature-title">
      <header className="feature__header">
        <a className="feature__back" href={hrefOf("/")} onClick={followLink("/")}>
          ← All features
        </a>
        <div className="feature__heading">
          <h1 id="feature-title">{feature.title}</h1>
          <p className="muted">{feature.summary}</p>
        </div>
        <a className="feature__record" href={`/runs/?thread=${encodeURIComponent(session.threadId)}`}>
          Run record
        </a>
        <button type="button" className="feature__new" onClick={onNewConversation}>
          New conversation
        </button>
      </header>
      <TetherProvider session={session}>
        <Page panel={<AssistantPanel title="Assistant" subtitle={model} placeholder="Message the agent…" />} />
      </TetherProvider>
    </main>
  );
}
