import { ProfileSwitch } from "./profile-switch.tsx";
import { go } from "./router.ts";
import type { Device } from "./use-device.ts";

/** The app's bar: name, its two pages, who is cooking, and on which device. */
export function TopBar(props: {
  path: string;
  device: Device;
  userId: string | undefined;
  switching: boolean;
  onSwitch(userId: string): void;
  onNewConversation?(): void;
  /** The conversation's thread, for the link to its run records. */
  threadId?: string;
}) {
  const link = (path: string, label: string) => (
    <a
      href={`/recipes${path}`}
      aria-current={props.path === path ? "page" : undefined}
      onClick={(event) => {
        event.preventDefault();
        go(path);
      }}
    >
      {label}
    </a>
  );
  return (
    <header className="topbar">
      <span className="topbar__brand">
        <span aria-hidden="true">🥕</span> Recipes
      </span>
      <nav className="topbar__nav" aria-label="Pages">
        {link("/", "Kitchen")}
        {link("/cookbook", "Cookbook")}
      </nav>
      <ProfileSwitch current={props.userId} busy={props.switching} onSwitch={props.onSwitch} />
      <span className="topbar__device" title="The tools the assistant gets depend on the device">
        {props.device === "mobile" ? "📱 Phone" : "🖥 Desktop"}
      </span>
      {props.threadId ? (
        <a className="topbar__link" href={`/runs/?${new URLSearchParams({ thread: props.threadId })}`}>
          Run record
        </a>
      ) : null}
      {props.onNewConversation ? (
        <button type="button" className="topbar__new" onClick={props.onNewConversation}>
          New conversation
        </button>
      ) : null}
    </header>
  );
}
