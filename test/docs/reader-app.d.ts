// What the code blocks of README.md and docs/ leave to the reader's own app, declared for
// test/docs/code-blocks.test.ts only (tsconfig.json excludes this file, so the project's own code
// can never lean on these globals). A block that declares one of these names itself shadows it.

/** The app's own sign-in: reads the request's credentials and returns its user, or undefined. */
declare function yourSession(request: Request): { id: string; roles: string[] } | undefined | Promise<{ id: string; roles: string[] } | undefined>;
/** The app's own screen search, filtered by what the user may open. */
declare function findScreens(query: string, user: { id: string }): Promise<Array<{ screenId: string; title: string }>>;
/** The app's own navigation: opens a screen and says what really happened. */
declare function navigate(screenId: string): import("@tether-agent/tether/protocol").ToolOutcome | Promise<import("@tether-agent/tether/protocol").ToolOutcome>;
/** The spec the guide's server block defines, when a later block uses it. */
declare const navigateToScreen: import("@tether-agent/tether/protocol").BrowserToolSpec<{ screenId: string }>;
/** The agent the guide's server block defines, when a later block mounts it. */
declare const agent: import("@tether-agent/tether/server").Agent;
/** A token the app gives CopilotKit's runtime to reach Tether. */
declare const serviceToken: string;

/** The Recipes page's audience and tool specs (apps/recipes/web/src/tool-sets.ts), for the one-agent-many-frontends block. */
declare const audience: { signedIn: boolean; vegetarian: boolean; mobile: boolean };
declare const DESKTOP_OFFER: import("@tether-agent/tether/protocol").BrowserToolSpec;
declare const MOBILE_OFFER: import("@tether-agent/tether/protocol").BrowserToolSpec;
declare const MOBILE_TIMER: import("@tether-agent/tether/protocol").BrowserToolSpec;
declare const SWAPS: import("@tether-agent/tether/protocol").BrowserToolSpec;
declare const saveToCookbook: import("@tether-agent/tether/protocol").BrowserToolSpec;
declare const orderIngredients: import("@tether-agent/tether/protocol").BrowserToolSpec;

/**
 * CopilotKit's runtime is not a dependency of this project (test/fixtures/copilotkit installs it for
 * the browser suite): only the constructor the guide's block calls, with the agents it is given.
 */
declare module "@copilotkit/runtime/v2" {
  export class CopilotRuntime {
    constructor(options: { agents: Record<string, import("@ag-ui/client").AbstractAgent> });
  }
}
