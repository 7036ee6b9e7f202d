import { defineBrowserTool, type BrowserToolArguments } from "@tether-agent/tether/protocol";
import { z } from "zod";

/**
 * The browser tool that opens a screen. The browser performs it and reports
 * what really happened; the server never navigates. Navigation goes by
 * `screenId` only: a route the model makes up is never followed.
 */
export const navigateToScreen = defineBrowserTool({
  name: "navigateToScreen",
  kind: "follow-up",
  required: true,
  description:
    "Opens a Workdesk screen in the content area behind the assistant panel, or in a new browser tab when the user asks for one. Use only a screenId returned by lookupScreens. " +
    "The browser reports the outcome; until it arrives, say you are opening the screen, never that it is open. " +
    "If the outcome is not succeeded, explain why and give the route from the lookup so the user can go there by hand.",
  // The arguments' one definition: the model's schema, the allow-list, the playbook's calls and the page's handler all take it from here.
  parameters: z.object({
    screenId: z.string().describe("Identifier of the screen to open, from lookupScreens. Navigation uses only this value."),
    screenName: z.string().optional().describe("Screen name to show the user."),
    routeHint: z.string().optional().describe("The screen's route, for the user to follow by hand; never used to navigate."),
    orgScope: z.string().optional().describe("Organisation the navigation is requested in."),
    payload: z.record(z.string(), z.unknown()).optional().describe("State for the target screen, such as { requestId } for a work request detail."),
    target: z
      .enum(["content", "new-tab"])
      .optional()
      .describe(
        "Where to open it: the content area (the default) or a new browser tab, only when the user asked for a new tab. The browser may block a new tab.",
      ),
  }),
});

export type NavigateToScreenArgs = BrowserToolArguments<typeof navigateToScreen>;
