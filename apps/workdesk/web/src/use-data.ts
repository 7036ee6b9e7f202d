import { useEffect, useState } from "react";
import { getJson } from "./api.ts";
import { useVisit } from "./router.ts";

/** Loads JSON for a screen: the data, or the error the API answered with; again on each visit, keeping what it shows meanwhile. */
export function useData<T>(path: string | undefined): { data?: T; error?: string; loading: boolean } {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const visit = useVisit();
  useEffect(() => {
    if (!path) return;
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    getJson<T>(path).then(
      (data) => live && setState({ data, loading: false }),
      (error: Error) => live && setState({ error: error.message, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [path, visit]);
  return state;
}
