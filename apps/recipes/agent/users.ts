import type { TetherUser } from "@tether-agent/tether/server";

/**
 * A Recipes user: who they are and what their profile says. The frontend
 * reads the profile to decide which tools to hand the agent; the server's
 * agent never checks it (the app's own API does, for the data it guards).
 */
export interface RecipesUser extends TetherUser {
  displayName: string;
  /** A guest browses; a signed-in user has a cookbook and can order. */
  signedIn: boolean;
  diet?: "vegetarian";
}

/** The Recipes demo's people. Sign-in is demo-only: anyone may be any of them. */
export const RECIPES_USERS: RecipesUser[] = [
  { id: "guest", displayName: "Guest", signedIn: false },
  { id: "sam", displayName: "Sam Cook", signedIn: true },
  { id: "vera", displayName: "Vera Green", signedIn: true, diet: "vegetarian" },
];

export function isRecipesUser(user: TetherUser): user is RecipesUser {
  return "signedIn" in user && typeof (user as RecipesUser).signedIn === "boolean";
}
