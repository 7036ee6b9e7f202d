import { useEffect, useState } from "react";
import { getJson, postJson, type DemoUser } from "./api.ts";

/** Demo sign-in: one button per demo user; any of them may use the dojo's agents. Demo only: there is no password. */
export function SignIn({ onSignedIn }: { onSignedIn(user: DemoUser): void }) {
  const [users, setUsers] = useState<DemoUser[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    getJson<{ users: DemoUser[] }>("/api/demo/users").then(
      (body) => setUsers(body.users),
      (failure: Error) => setError(failure.message),
    );
  }, []);
  const signIn = (userId: string) =>
    postJson<{ user: DemoUser }>("/api/demo/login", { user: userId }).then(
      ({ user }) => onSignedIn(user),
      (failure: Error) => setError(failure.message),
    );
  return (
    <main className="sign-in" aria-label="Sign in">
      <h1>AG-UI dojo</h1>
      <p>The AG-UI dojo's features, served by Tether and shown with Tether's own React parts. Choose a demo user: any of them may use the dojo.</p>
      <p className="muted">This sign-in is for the demo only: there is no password.</p>
      {error ? <p role="alert">{error}</p> : null}
      <ul className="sign-in__users">
        {users.map((user) => (
          <li key={user.id}>
            <button type="button" onClick={() => void signIn(user.id)}>
              Sign in as {user.id}
            </button>
            <span className="muted">{user.displayName}</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
