/**
 * Where the assistant panel is shown: beside the app, over all of it, or as a
 * window over the current screen. The session only sees the string (its tools
 * list the modes they may act in); the panel lays itself out for it.
 */
export type PanelMode = "side" | "fullscreen" | "modal";
