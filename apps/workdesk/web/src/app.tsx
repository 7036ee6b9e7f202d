import { useCallback, useEffect, useState } from "react";
import { TetherError } from "tether/protocol";
import { getJson, type Screen, type User } from "./api.ts";
import { Shell } from "./shell.tsx";
import { SignIn } from "./sign-in.tsx";

type Signed = { state: "loading" } | { state: "out" } | { state: "in"; user: User; screens: Screen[] };

/** Signed in (the demo cookie), the app; otherwise the demo sign-in. */
export function App() {
  const [signed, setSigned] = useState<Signed>({ state: "loading" });
  const load = useCallback(async () => {
    try {
      const [{ user }, { screens }] = await Promise.all([getJson<{ user: User }>("/api/workdesk/me"), getJson<{ screens: Screen[] }>("/api/workdesk/screens")]);
      setSigned({ state: "in", user, screens });
    } catch (error) {
      if (error instanceof TetherError && error.code !== "unauthenticated") console.error(error);
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
  return <Shell key={signed.user.id} user={signed.user} screens={signed.screens} onSignOut={() => void signOut()} />;
}
