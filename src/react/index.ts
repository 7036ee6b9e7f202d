/**
 * React bindings for Tether: the assistant panel and hooks for sessions and
 * browser tools.
 *
 * @module
 */
export { ApprovalCard, type ApprovalCardProps } from "./approval-card.tsx";
export { AssistantPanel, type AssistantPanelProps } from "./assistant-panel.tsx";
export { MessageList } from "./message-list.tsx";
export type { PanelMode } from "./panel-mode.ts";
export { ToolActivityItem } from "./tool-activity-item.tsx";
export { useAgentSession } from "./use-agent-session.ts";
export { useBrowserTool } from "./use-browser-tool.ts";
