import type { Screen } from "./api.ts";
import type { Navigate } from "./navigation.ts";

/** The user's screen tree: groups, and the screens under them that open from the menu. */
export function Menu({ screens, path, navigate }: { screens: Screen[]; path: string; navigate: Navigate }) {
  const openable = (screen: Screen) => screen.route && !screen.route.includes(":");
  const roots = screens.filter((screen) => !screen.parent || !screens.some((parent) => parent.id === screen.parent));
  const children = (parent: Screen) => screens.filter((screen) => screen.parent === parent.id && openable(screen));
  const link = (screen: Screen) => (
    <a
      href={screen.route}
      aria-current={path === screen.route ? "page" : undefined}
      onClick={(event) => {
        event.preventDefault();
        void navigate(screen.id);
      }}
    >
      {screen.name}
    </a>
  );
  return (
    <nav className="menu" aria-label="Menu">
      {roots.map((root) => (
        <div key={root.id} className="menu__group">
          {openable(root) ? (
            <ul>
              <li>{link(root)}</li>
            </ul>
          ) : (
            <>
              <h2 className="menu__heading">{root.name}</h2>
              <ul>
                {children(root).map((screen) => (
                  <li key={screen.id}>{link(screen)}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      ))}
    </nav>
  );
}
