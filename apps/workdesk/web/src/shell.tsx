import { useEffect, useMemo, useState } from "react";
import type { AgentSession } from "@tether-agent/tether/client";
import { AssistantPanel, TetherProvider, useSessionState, useBrowserTool, type PanelMode } from "@tether-agent/tether/react";
import { navigateToScreen } from "../../agent/navigate-to-screen.ts";
import { getJson, type Screen, type User } from "./api.ts";
import { Menu } from "./menu.tsx";
import { createNavigator, type Navigate } from "./navigation.ts";
import { SearchResultsView } from "./search-results.tsx";
import { matchRoute, refresh, replace, usePath } from "./router.ts";
import { SCREEN_COMPONENTS } from "./screens/index.ts";
import { createWorkdeskSession, workdeskAgentId } from "./session.ts";

/** The signed-in app: menu, content area, and the assistant beside (or over) it. */
export function Shell({ user, screens, onSignOut }: { user: User; screens: Screen[]; onSignOut(): void }) {
  const path = usePath();
  const navigate = useMemo(() => createNavigator({ user, screens: () => screens }), [user, screens]);
  const [session, setSession] = useState(() => createWorkdeskSession(user));
  const [mode, setMode] = useState<PanelMode>("side");
  // On a phone the assistant is a sheet over the app: it starts closed, behind its launcher.
  const [open, setOpen] = useState(() => !window.matchMedia("(max-width: 639.98px)").matches);
  const [model, setModel] = useState<string>();

  useEffect(() => session.setMode(mode), [session, mode]);
  // When the assistant finishes, what it did (closing a request) shows on the screen.
  const running = useSessionState(session).running;
  useEffect(() => {
    if (!running) refresh();
  }, [running]);
  useEffect(() => {
    void session.restore();
  }, [session]);
  useEffect(() => {
    getJson<{ custom?: { model?: { provider: string; modelId: string } } }>(`/api/agents/${workdeskAgentId()}/capabilities`).then(
      ({ custom }) => {
        const answering = custom?.model;
        setModel(
          answering?.provider === "tether.playbook"
            ? "Offline playbook model: scripted, not a language model"
            : answering?.provider === "ag-ui"
              ? `An AG-UI agent Tether does not run, at ${answering.modelId}`
              : answering?.provider === "adk"
                ? `An ADK agent, run by Tether: ${answering.modelId}`
                : answering
                  ? `${answering.provider} · ${answering.modelId}`
                  : undefined,
        );
      },
      () => setModel(undefined),
    );
  }, []);
  const routed = [...screens]
    .filter((screen) => screen.route)
    .sort((a, b) => Number(a.route!.includes(":")) - Number(b.route!.includes(":")))
    .map((screen) => ({ screen, params: matchRoute(screen.route!, path) }))
    .find((match) => match.params);
  useEffect(() => {
    if (path === "/") replace("/dashboard");
  }, [path]);
  const Content = routed ? SCREEN_COMPONENTS[routed.screen.id] : undefined;

  return (
    <TetherProvider key={session.threadId} session={session}>
      <NavigationTool session={session} navigate={navigate} />
      <SearchResultsView />
      <div className={`workdesk workdesk--${mode}${open ? "" : " workdesk--closed"}`}>
        <header className="topbar">
          <span className="topbar__brand">Workdesk</span>
          <span className="topbar__user">
            {user.displayName} ({user.id}) · {user.orgScope} · {user.roles.join(", ")}
          </span>
          {/* What this conversation's runs did, step by step: the run-record viewer, on the same sign-in. */}
          <a className="topbar__link" href={`/runs/?${new URLSearchParams({ thread: session.threadId })}`}>
            Run record
          </a>
          <button type="button" onClick={() => setSession(createWorkdeskSession(user, true))}>
            New conversation
          </button>
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </header>
        <Menu screens={screens} path={path} navigate={navigate} />
        <main className="content" aria-label="Content">
          {Content && routed ? (
            <Content path={path} params={routed.params!} navigate={navigate} />
          ) : path === "/" ? null : (
            <>
              <h1>Not available</h1>
              <p>This page is not among the screens you can open.</p>
            </>
          )}
        </main>
        <AssistantPanel
          key={session.threadId}
          session={session}
          title="Assistant"
          subtitle={model}
          onModeChange={setMode}
          open={open}
          onOpenChange={setOpen}
          placeholder="Ask me to open a screen or find a request…"
        />
      </div>
    </TetherProvider>
  );
}

/** The assistant's way into the app's navigation: the browser tool, and how its calls look in the conversation. */
function NavigationTool({ session, navigate }: { session: AgentSession; navigate: Navigate }) {
  useBrowserTool(session, {
    spec: navigateToScreen,
    // Only beside the app: full screen there is no content to replace, and a window must not change what it covers.
    modes: ["side"],
    execute: (args) =>
      navigate(args.screenId, {
        ...(args.payload ? { payload: args.payload } : {}),
        ...(args.orgScope ? { orgScope: args.orgScope } : {}),
        ...(args.target ? { target: args.target } : {}),
      }),
    describe: ({ args, status, reason, message }) => {
      const name = args?.screenName ?? args?.screenId ?? "a screen";
      const route = args?.routeHint ? ` (${args.routeHint})` : "";
      if (status === "calling" || status === "running") return `Opening ${name}…`;
      if (status === "succeeded") return reason === "timeout" && message ? message : `Opened ${name}${route}`;
      if (status === "failed") return `Couldn't open ${name}: ${reason === "access_denied" ? "you don't have access" : (message ?? "it failed")}`;
      if (status === "blocked")
        return `Didn't open ${name}: ${reason === "blocked_by_mode" ? "not while the assistant covers the screen" : (message ?? "blocked")}`;
      return undefined; // anything else in the library's words
    },
  });
  return null;
}
