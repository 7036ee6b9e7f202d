/**
 * React bindings for Tether: a provider for the session, the assistant panel
 * and the parts it is arranged from, and hooks for sessions, shared state and browser tools.
 *
 * @module
 */
export { ApprovalCard, type ApprovalCardProps } from "./approval-card.tsx";
export { Approvals } from "./approvals.tsx";
export { AssistantPanel, type AssistantPanelProps } from "./assistant-panel.tsx";
export { Composer, type ComposerProps } from "./composer.tsx";
export { Conversation } from "./conversation.tsx";
export { MessageList, type SurfaceHandlers } from "./message-list.tsx";
export { SurfaceView, type SurfaceViewProps } from "./surface-view.tsx";
export type { PanelMode } from "./panel-mode.ts";
export { SessionNotice } from "./session-notice.tsx";
export { TetherProvider, type TetherProviderProps } from "./tether-provider.tsx";
export { ToolActivityItem } from "./tool-activity-item.tsx";
export { ToolTimeline } from "./tool-timeline.tsx";
export { useSessionState } from "./use-session-state.ts";
export { useAgentState, type AgentStateUpdate } from "./use-agent-state.ts";
export { useBrowserTool, type ReactBrowserToolHandler } from "./use-browser-tool.ts";
export { createToolRenderers, type ToolCallDescriber, type ToolCallRenderer, type ToolCallView, type ToolRenderers, type ToolView } from "./tool-renderers.ts";
export { useSessionStatus } from "./use-session-status.ts";
export { useToolRenderer, type ServerToolCallStatus, type ServerToolCallView, type ServerToolRenderer, type ToolRendererOptions } from "./use-tool-renderer.ts";
export { useTetherSession } from "./use-tether-session.ts";
export { Welcome } from "./welcome.tsx";
