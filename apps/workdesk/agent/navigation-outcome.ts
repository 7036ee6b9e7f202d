import type { ToolOutcome } from "@tether-agent/tether/protocol";

/** How far a Workdesk navigation got: asked for, the screen switched, its data on display. */
export const NAVIGATION_STAGES = ["requested", "switched", "displayed"] as const;
export type NavigationStage = (typeof NAVIGATION_STAGES)[number];

/** Why a Workdesk navigation did not happen, beyond the reasons every tool can meet. */
export const NAVIGATION_REASONS = ["access_denied", "org_scope_mismatch", "popup_blocked", "not_found"] as const;
export type NavigationReason = (typeof NAVIGATION_REASONS)[number];

/** What `navigateToScreen` reports: the library's outcome, in the Workdesk's words. */
export type NavigationOutcome = ToolOutcome<NavigationStage, NavigationReason>;
