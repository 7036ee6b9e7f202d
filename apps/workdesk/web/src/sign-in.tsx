import { useEffect, useState } from "react";
import { getJson, type User } from "./api.ts";

/** Demo sign-in: one button per demo user. Demo only: there is no password. */
export function SignIn({ onSignedIn }: { onSignedIn(): void }) {
  const [users, setUsers] = useState<User[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    getJson<{ users: User[] }>("/api/demo/users").then(
      // The demo sign-in also lists the Recipes users; the Workdesk shows its own people.
      (body) => setUsers(body.users.filter((user) => typeof user.orgScope === "string")),
      (failure: Error) => setError(failure.message),
    );
  }, []);
  const signIn = async (userId: string) => {
    const response = await fetch("/api/demo/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user: userId }),
    });
    if (response.ok) onSignedIn();
    else setError(((await response.json()) as { error: { message: string } }).error.message);
  };
  return (
    <main className="sign-in" aria-label="Sign in">
      <h1>Workdesk</h1>
      <p>Choose a demo user. This sign-in is for the demo only: there is no password.</p>
      {error ? <p role="alert">{error}</p> : null}
      <ul className="sign-in__users">
        {users.map((user) => (
          <li key={user.id}>
            <button type="button" onClick={() => void signIn(user.id)}>
              Sign in as {user.id}
            </button>
            <span>
              {user.displayName} · {user.orgScope} · {user.roles.join(", ")}
            </span>
          </li>
        ))}
      </ul>
    </main>
  );
}
