import { useMemo } from "react";
import type { RunRecordDocument, ThreadRunChain } from "@tether-agent/tether/protocol";
import { getChain, getRecord } from "./api.ts";
import { ChainView } from "./chain-view.tsx";
import { readSelection } from "./links.ts";
import { Failed, Missing, SignInHint } from "./notices.tsx";
import { RunView } from "./run-view.tsx";
import { useAnswer, type Loading } from "./use-answer.ts";

/** `/runs/?thread=…`: the thread's chain of runs; `?run=…`: that run's timeline, beside its thread's chain. */
export function App() {
  const selection = useMemo(() => readSelection(window.location.search), []);
  const { runId, limit } = selection;
  const record = useAnswer(runId, runId ? () => getRecord(runId, { limit }) : undefined);
  // Only a run given: its thread comes from its record.
  const threadId = selection.threadId ?? (record?.state === "ok" ? record.value.threadId : undefined);
  const chain = useAnswer(threadId, threadId ? () => getChain(threadId) : undefined);
  const signedOut = record?.state === "signed-out" || chain?.state === "signed-out";

  return (
    <>
      <header className="bar">
        <a className="bar__brand" href="/runs/">
          Run records
        </a>
        <nav aria-label="Apps" className="bar__apps">
          <a href="/">Workdesk</a>
          <a href="/recipes/">Recipes</a>
        </nav>
      </header>
      <main className="page">
        <h1 className="visually-hidden">Run records</h1>
        {signedOut ? (
          <SignInHint />
        ) : !threadId && !runId ? (
          <Start />
        ) : (
          <div className={`layout${runId ? " layout--run" : ""}`}>
            {threadId ? <Chain chain={chain} selectedRunId={runId} /> : null}
            {runId ? (
              <Record record={record} limit={limit} />
            ) : chain?.state === "ok" && chain.value.runs.length > 0 ? (
              <p className="hint">Choose a run to see its timeline.</p>
            ) : null}
          </div>
        )}
      </main>
    </>
  );
}

function Chain({ chain, selectedRunId }: { chain: Loading<ThreadRunChain> | undefined; selectedRunId: string | undefined }) {
  if (!chain || chain.state === "loading") return <p aria-live="polite">Loading the thread…</p>;
  if (chain.state === "missing") return <Missing what="thread" />;
  if (chain.state === "failed") return <Failed message={chain.message} />;
  if (chain.state === "signed-out") return null;
  return <ChainView chain={chain.value} selectedRunId={selectedRunId} />;
}

function Record({ record, limit }: { record: Loading<RunRecordDocument> | undefined; limit: number | undefined }) {
  if (!record || record.state === "loading") return <p aria-live="polite">Loading the run…</p>;
  if (record.state === "missing") return <Missing what="run" />;
  if (record.state === "failed") return <Failed message={record.message} />;
  if (record.state === "signed-out") return null;
  return <RunView key={record.value.runId} record={record.value} limit={limit} />;
}

function Start() {
  return (
    <section className="notice" aria-labelledby="start-heading">
      <h2 id="start-heading">What happened in a run</h2>
      <p>
        Open <code>/runs/?thread=&lt;threadId&gt;</code> for a conversation's runs, or <code>/runs/?run=&lt;runId&gt;</code> for one run's timeline. The
        Workdesk's assistant panel links here with its thread (“Run record”).
      </p>
    </section>
  );
}
