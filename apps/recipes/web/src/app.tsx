import { useEffect, useState } from "react";
import { isTetherError } from "@tether-agent/tether/protocol";
import type { User } from "./api.ts";
import { createKitchenTimers } from "./kitchen-timers.ts";
import { currentUser, signInAs } from "./profile.ts";
import { createRecipeBook } from "./recipe-book.ts";
import { usePath } from "./router.ts";
import { Shell } from "./shell.tsx";
import { TopBar } from "./top-bar.tsx";
import { useDevice } from "./use-device.ts";

type Signed =
  | { state: "loading" }
  /** Signed in as someone Recipes does not serve (a Workdesk user), or the sign-in failed: pick a profile. */
  | { state: "out"; message: string }
  /** `fresh`: start a new conversation rather than continue the stored one; `generation` counts them. */
  | { state: "in"; user: User; fresh: boolean; generation: number };

/** Who is cooking: the signed-in Recipes person, a guest when nobody is signed in yet, and the profile switch. */
export function App() {
  const device = useDevice();
  const path = usePath();
  const [signed, setSigned] = useState<Signed>({ state: "loading" });
  const [switching, setSwitching] = useState(false);
  const [book] = useState(createRecipeBook);
  const [timers] = useState(() => createKitchenTimers());

  useEffect(() => {
    const enter = (user: User) => setSigned({ state: "in", user, fresh: false, generation: 0 });
    currentUser()
      .catch((error: unknown) => {
        // Nobody signed in yet: a guest, who can browse and ask for ideas.
        if (isTetherError(error) && error.code === "unauthenticated") return signInAs("guest");
        throw error;
      })
      .then(enter, (error: unknown) => setSigned({ state: "out", message: (error as Error).message }));
  }, []);

  const switchTo = (userId: string) => {
    setSwitching(true);
    signInAs(userId)
      .then(
        (user) => setSigned((previous) => ({ state: "in", user, fresh: true, generation: previous.state === "in" ? previous.generation + 1 : 1 })),
        (error: unknown) => setSigned({ state: "out", message: (error as Error).message }),
      )
      .finally(() => setSwitching(false));
  };

  if (signed.state === "loading") return <p className="loading">Loading Recipes…</p>;
  if (signed.state === "out") {
    return (
      <div className={`app app--${device}`}>
        <TopBar path={path} device={device} userId={undefined} switching={switching} onSwitch={switchTo} />
        <main className="cookbook" aria-label="Choose a profile">
          <h1>Who is cooking?</h1>
          <p role="alert">{signed.message}</p>
          <p>Pick Guest, Sam or Vera above. This sign-in is for the demo only: there is no password.</p>
        </main>
      </div>
    );
  }
  return (
    <Shell
      key={`${signed.user.id}:${signed.generation}`}
      user={signed.user}
      fresh={signed.fresh}
      device={device}
      book={book}
      timers={timers}
      switching={switching}
      onSwitch={switchTo}
      onNewConversation={() => setSigned({ ...signed, fresh: true, generation: signed.generation + 1 })}
    />
  );
}
