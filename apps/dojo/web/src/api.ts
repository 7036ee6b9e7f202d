import { errorFromResponse } from "@tether-agent/tether/client";

/** A GET of the demo's API; errors come back as TetherError (code and message). */
export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as T;
}

/** A JSON POST of the demo sign-in. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as T;
}

/** A demo user as the sign-in lists them (Workdesk and Recipes people alike: any of them may use the dojo). */
export interface DemoUser {
  id: string;
  displayName: string;
}

/** The agent's capabilities, as far as this page reads them: which model answers. */
export interface Capabilities {
  custom?: { model?: { provider: string; modelId: string } };
}
