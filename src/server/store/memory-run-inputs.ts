import { joinRunInput, splitRunInput, type StoredRunInput } from "./shared/run-input-history.ts";

/** The memory store's run requests, each history stored once per thread by content (see run-input-history.ts). */
export function createMemoryRunInputs() {
  const runs = new Map<string, { threadId: string; inline: string; tail?: string }>();
  const histories = new Map<string, { contents: Map<string, string>; links: Map<string, { parent: string; content: string }> }>();
  return {
    /** Serializes first: a request that cannot be stored fails before anything is written. */
    prepare: (input: unknown): StoredRunInput => splitRunInput(input),
    store(threadId: string, runId: string, input: StoredRunInput) {
      let history = histories.get(threadId);
      if (!history) histories.set(threadId, (history = { contents: new Map(), links: new Map() }));
      for (const link of input.links) {
        if (history.links.has(link.node)) continue;
        history.links.set(link.node, { parent: link.parent, content: link.content });
        if (!history.contents.has(link.content)) history.contents.set(link.content, link.body);
      }
      runs.set(runId, { threadId, inline: input.inline, ...(input.tail ? { tail: input.tail } : {}) });
    },
    read(runId: string): unknown {
      const run = runs.get(runId);
      if (!run) return undefined;
      if (!run.tail) return JSON.parse(run.inline);
      const history = histories.get(run.threadId)!;
      const messages: unknown[] = [];
      for (let node = run.tail; node !== "";) {
        const link = history.links.get(node)!;
        messages.push(JSON.parse(history.contents.get(link.content)!));
        node = link.parent;
      }
      return joinRunInput(JSON.parse(run.inline), messages.reverse());
    },
  };
}
