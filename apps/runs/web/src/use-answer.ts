import { useEffect, useState } from "react";
import type { Answer } from "./api.ts";

export type Loading<T> = Answer<T> | { state: "loading" };

/** The answer of `load` (none while `load` is undefined), asked again when `key` changes. */
export function useAnswer<T>(key: string | undefined, load: (() => Promise<Answer<T>>) | undefined): Loading<T> | undefined {
  const [answer, setAnswer] = useState<Loading<T>>();
  useEffect(() => {
    if (!load) {
      setAnswer(undefined);
      return;
    }
    let current = true;
    setAnswer({ state: "loading" });
    void load().then((value) => {
      if (current) setAnswer(value);
    });
    return () => {
      current = false;
    };
    // `key` names what `load` asks for; a new closure for the same key is the same question.
  }, [key]);
  return answer;
}
