import { RECIPES_API, getJson, sendJson, type User } from "./api.ts";

/** The Recipes demo's people, in the order the profile switch shows them. */
export const PROFILES = [
  { id: "guest", label: "Guest", detail: "browsing" },
  { id: "sam", label: "Sam", detail: "signed in" },
  { id: "vera", label: "Vera", detail: "vegetarian" },
] as const;

/** Who is signed in, as the Recipes API sees it. */
export async function currentUser(): Promise<User> {
  return (await getJson<{ user: User }>(`${RECIPES_API}/me`)).user;
}

/** Demo sign-in as one of the Recipes people (sets the cookie every request then carries). */
export async function signInAs(userId: string): Promise<User> {
  await sendJson("POST", "/api/demo/login", { user: userId });
  return currentUser();
}
