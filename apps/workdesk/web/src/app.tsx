import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { getJson, isUnauthenticated, type Screen, type User } from "./api.ts";
import { SignIn } from "./sign-in.tsx";

// The signed-in app (the assistant, its AG-UI client and checks) is a chunk of its own: the sign-in page
// needs none of it. Fetched from the start, beside "who am I", so a signed-in page waits for no extra trip.
const shell = import("./shell.tsx");
const Shell = lazy(async () => ({ default: (await shell).Shell }));

type Signed = { state: "loading" } | { state: "out" } | { state: "in"; user: User; screens: Screen[] };

/** Signed in (the demo cookie), the app; otherwise the demo sign-in. */
export function App() {
  const [signed, setSigned] = useState<Signed>({ state: "loading" });
  const load = useCallback(async () => {
    try {
      const [{ user }, { screens }] = await Promise.all([getJson<{ user: User }>("/api/workdesk/me"), getJson<{ screens: Screen[] }>("/api/workdesk/screens")]);
      setSigned({ state: "in", user, screens });
    } catch (error) {
      if (!isUnauthenticated(error)) console.error(error);
      setSigned({ state: "out" });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const signOut = async () => {
    await fetch("/api/demo/logout", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    setSigned({ state: "out" });
  };
  if (signed.state === "loading") return <p className="loading">Loading…</p>;
  if (signed.state === "out") return <SignIn onSignedIn={() => void load()} />;
  return (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <Shell key={signed.user.id} user={signed.user} screens={signed.screens} onSignOut={() => void signOut()} />
    </Suspense>
  );
}
