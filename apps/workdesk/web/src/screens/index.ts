import type { ComponentType } from "react";
import { ApprovalsScreen } from "./approvals.tsx";
import { DashboardScreen } from "./dashboard.tsx";
import { NewWorkRequestScreen } from "./new-work-request.tsx";
import type { ScreenProps } from "./screen-props.ts";
import { UserAdministrationScreen } from "./user-administration.tsx";
import { WorkRequestDetailScreen } from "./work-request-detail.tsx";
import { WorkRequestListScreen } from "./work-request-list.tsx";

/** The component for each screen of the catalog, by screen id. */
export const SCREEN_COMPONENTS: Record<string, ComponentType<ScreenProps>> = {
  "MNU-3100": DashboardScreen,
  "MNU-3120": WorkRequestListScreen,
  "MNU-3130": WorkRequestDetailScreen,
  "MNU-3140": NewWorkRequestScreen,
  "MNU-3200": ApprovalsScreen,
  "MNU-9000": UserAdministrationScreen,
};

export type { ScreenProps } from "./screen-props.ts";
