import type { Navigate } from "../navigation.ts";

/** What every screen gets: where it is, its route params, and the app's navigation. */
export interface ScreenProps {
  path: string;
  params: Record<string, string>;
  navigate: Navigate;
}
