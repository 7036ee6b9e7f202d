import type { ComponentType } from "react";
import type { DojoFeature } from "../../../agent/index.ts";
import type { PageProps } from "../parts/layouts.tsx";
import { AgenticChatPage } from "./agentic-chat.tsx";
import { AgenticGenerativeUiPage } from "./agentic-generative-ui.tsx";
import { BackendToolRenderingPage } from "./backend-tool-rendering.tsx";
import { HumanInTheLoopPage } from "./human-in-the-loop.tsx";
import { PredictiveStateUpdatesPage } from "./predictive-state-updates.tsx";
import { SharedStatePage } from "./shared-state.tsx";
import { ToolBasedGenerativeUiPage } from "./tool-based-generative-ui.tsx";

/** Each feature's page, by the feature's id (the id of the agent it talks to). */
export const PAGES: Record<DojoFeature, ComponentType<PageProps>> = {
  agentic_chat: AgenticChatPage,
  backend_tool_rendering: BackendToolRenderingPage,
  human_in_the_loop: HumanInTheLoopPage,
  agentic_generative_ui: AgenticGenerativeUiPage,
  tool_based_generative_ui: ToolBasedGenerativeUiPage,
  shared_state: SharedStatePage,
  predictive_state_updates: PredictiveStateUpdatesPage,
};
