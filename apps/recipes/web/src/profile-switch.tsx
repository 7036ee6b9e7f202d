import { PROFILES } from "./profile.ts";

/** Guest, Sam or Vera: always in view; choosing one signs in as them and starts a new conversation. */
export function ProfileSwitch({ current, busy, onSwitch }: { current: string | undefined; busy: boolean; onSwitch(userId: string): void }) {
  return (
    <div className="profiles" role="radiogroup" aria-label="Profile">
      {PROFILES.map((profile) => (
        <button
          key={profile.id}
          type="button"
          role="radio"
          aria-checked={current === profile.id}
          aria-label={`${profile.label} (${profile.detail})`}
          disabled={busy}
          onClick={() => current !== profile.id && onSwitch(profile.id)}
          className="profiles__option"
        >
          <span className="profiles__name">{profile.label}</span>
          <span className="profiles__detail">{profile.detail}</span>
        </button>
      ))}
    </div>
  );
}
