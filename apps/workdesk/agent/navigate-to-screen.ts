import { defineBrowserTool } from "tether/protocol";

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
  parameters: {
    type: "object",
    properties: {
      screenId: { type: "string", description: "Identifier of the screen to open, from lookupScreens. Navigation uses only this value." },
      screenName: { type: "string", description: "Screen name to show the user." },
      routeHint: { type: "string", description: "The screen's route, for the user to follow by hand; never used to navigate." },
      orgScope: { type: "string", description: "Organisation the navigation is requested in." },
      payload: { type: "object", description: "State for the target screen, such as { requestId } for a work request detail." },
      target: {
        type: "string",
        enum: ["content", "new-tab"],
        description: "Where to open it: the content area (the default) or a new browser tab, only when the user asked for a new tab. The browser may block a new tab.",
      },
    },
    required: ["screenId"],
  },
});
