import { errorFromResponse } from "@tether-agent/tether/client";
import { isTetherError } from "@tether-agent/tether/protocol";
import type { Screen as CatalogScreen } from "../../agent/screens.ts";
import type { WorkRequest } from "../../agent/work-requests.ts";

/** GETs the Workdesk API (the demo sign-in cookie rides along); errors come back as TetherError. */
export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as T;
}

/** The API's answer when nobody is signed in: the sign-in page, not a failure. */
export const isUnauthenticated = (error: unknown) => isTetherError(error) && error.code === "unauthenticated";

export interface User {
  id: string;
  displayName?: string;
  orgScope: string;
  roles: string[];
}

/** A screen of the user's tree, as the API sends it: the catalog's screen with its breadcrumb. */
export type Screen = Omit<CatalogScreen, "synonyms" | "shows"> & { path: string };

export type { WorkRequest };
