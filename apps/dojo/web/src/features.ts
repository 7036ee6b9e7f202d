import type { DojoFeature } from "../../agent/index.ts";

/** A dojo feature as the index lists it: the agent of the same id, and what its page shows. */
export interface FeatureInfo {
  id: DojoFeature;
  title: string;
  /** What the page shows working, in a sentence. */
  summary: string;
  /** The Tether parts it is built from. */
  parts: string;
}

/** The AG-UI dojo's features, in the dojo's order. */
export const FEATURES: readonly FeatureInfo[] = [
  {
    id: "agentic_chat",
    title: "Agentic chat",
    summary: "A chat that remembers the conversation; the agent changes this page's background with a browser tool and tells the (demo) weather.",
    parts: "useBrowserTool, useToolRenderer",
  },
  {
    id: "backend_tool_rendering",
    title: "Backend tool rendering",
    summary: "A server tool's call and result drawn as a weather card in the conversation, loading while it runs.",
    parts: "useToolRenderer",
  },
  {
    id: "human_in_the_loop",
    title: "Human in the loop",
    summary: "The agent proposes steps; you untick the ones you don't want and confirm or reject, and it carries out only what you kept.",
    parts: "useBrowserTool (render, waiting for the person)",
  },
  {
    id: "agentic_generative_ui",
    title: "Agentic generative UI",
    summary: "A long server tool reports its progress as shared state: each step turns from pending to completed as it ends.",
    parts: "useAgentState",
  },
  {
    id: "tool_based_generative_ui",
    title: "Tool-based generative UI",
    summary: "The agent writes haiku through a render-only browser tool; the page draws each as a card.",
    parts: "useBrowserTool (render-only)",
  },
  {
    id: "shared_state",
    title: "Shared state",
    summary: "A recipe you and the agent edit together: your edits reach it on the next run, its changes stream in as it writes them.",
    parts: "useAgentState, predictive state",
  },
  {
    id: "predictive_state_updates",
    title: "Predictive state updates",
    summary: "A document that grows while the model writes it, then waits for you to accept or reject the change.",
    parts: "useAgentState, useBrowserTool",
  },
];

export function featureInfo(id: string): FeatureInfo | undefined {
  return FEATURES.find((feature) => feature.id === id);
}
