import { TetherError, isTetherErrorCode } from "tether/protocol";

/** GETs the Workdesk API (the demo sign-in cookie rides along); errors come back as TetherError. */
export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
    const code = body?.error?.code;
    throw new TetherError(isTetherErrorCode(code) ? code : "internal", body?.error?.message ?? `HTTP ${response.status}`);
  }
  return (await response.json()) as T;
}

export interface User {
  userId: string;
  displayName?: string;
  orgScope: string;
  roles: string[];
}

export interface Screen {
  id: string;
  name: string;
  description: string;
  route?: string;
  parent?: string;
  roles?: string[];
  path: string;
}

export interface WorkRequest {
  id: string;
  orgScope: string;
  title: string;
  status: "open" | "in_progress" | "waiting_approval" | "closed";
  priority: "low" | "medium" | "high";
  requester: string;
  createdAt: string;
  updatedAt: string;
  resolution?: string;
}
