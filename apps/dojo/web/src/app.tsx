import { useEffect, useState } from "react";
import { isTetherError } from "@tether-agent/tether/protocol";
import { getJson, postJson, type DemoUser } from "./api.ts";
import { FeaturePage } from "./feature-page.tsx";
import { featureInfo } from "./features.ts";
import { IndexPage } from "./index-page.tsx";
import { followLink, hrefOf, usePath } from "./router.ts";
import { forgetDojoThreads } from "./session.ts";
import { SignIn } from "./sign-in.tsx";

type Signed = { state: "loading" } | { state: "out" } | { state: "failed"; message: string } | { state: "in" };

/** Who signed in here (the sign-in answers with the user; the cookie says only that someone did): the top bar names them. */
const USER_KEY = "dojo:user";

/** Signed in (the demo cookie), the index or a feature's page; otherwise the demo sign-in. */
export function App() {
  const path = usePath();
  const [signed, setSigned] = useState<Signed>({ state: "loading" });
  useEffect(() => {
    // Any dojo agent answers its capabilities to anyone signed in: that is the check.
    getJson("/api/agents/agentic_chat/capabilities").then(
      () => setSigned({ state: "in" }),
      (error: unknown) => {
        if (!isTetherError(error) || error.code !== "unauthenticated") return setSigned({ state: "failed", message: (error as Error).message });
        localStorage.removeItem(USER_KEY); // whoever signed in here, their sign-in is over
        setSigned({ state: "out" });
      },
    );
  }, []);
  const signedIn = (user: DemoUser) => {
    forgetDojoThreads();
    localStorage.setItem(USER_KEY, user.displayName);
    setSigned({ state: "in" });
  };
  const signOut = async () => {
    await postJson("/api/demo/logout", {});
    forgetDojoThreads();
    localStorage.removeItem(USER_KEY);
    setSigned({ state: "out" });
  };

  if (signed.state === "loading") return <p className="loading">Loading…</p>;
  if (signed.state === "failed") return <p role="alert">The dojo could not start: {signed.message}</p>;
  if (signed.state === "out") return <SignIn onSignedIn={signedIn} />;
  const feature = path === "/" ? undefined : featureInfo(path.slice(1));
  return (
    <div className="app">
      <header className="top-bar">
        <a className="top-bar__home" href={hrefOf("/")} onClick={followLink("/")}>
          AG-UI dojo <span className="muted">· Tether</span>
        </a>
        <span className="top-bar__user">
          <span className="muted top-bar__name">{localStorage.getItem(USER_KEY)}</span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </span>
      </header>
      {path === "/" ? <IndexPage /> : feature ? <FeaturePage key={feature.id} feature={feature} /> : <NotFound path={path} />}
    </div>
  );
}

function NotFound({ path }: { path: string }) {
  return (
    <main className="index" aria-label="Not found">
      <h1>No such feature</h1>
      <p>
        The dojo has no feature called “{path.slice(1)}”.{" "}
        <a href={hrefOf("/")} onClick={followLink("/")}>
          See the features
        </a>
        .
      </p>
    </main>
  );
}
