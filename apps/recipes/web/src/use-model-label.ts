import { useEffect, useState } from "react";
import { getJson } from "./api.ts";

/** Which model answers, in a line for the panel: the offline playbook says it is a script. */
export function useModelLabel(): string | undefined {
  const [label, setLabel] = useState<string>();
  useEffect(() => {
    getJson<{ custom?: { model?: { provider: string; modelId: string } } }>("/api/agents/recipes/capabilities").then(
      ({ custom }) => {
        const model = custom?.model;
        setLabel(
          model?.provider === "tether.playbook"
            ? "Offline playbook model: scripted, not a language model"
            : model
              ? `${model.provider} · ${model.modelId}`
              : undefined,
        );
      },
      () => setLabel(undefined),
    );
  }, []);
  return label;
}
