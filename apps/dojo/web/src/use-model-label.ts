import { useEffect, useState } from "react";
import { getJson, type Capabilities } from "./api.ts";

/** Which model answers a feature, in a line for the panel: the offline playbook says it is a script. */
export function useModelLabel(agentId: string): string | undefined {
  const [label, setLabel] = useState<string>();
  useEffect(() => {
    let current = true;
    getJson<Capabilities>(`/api/agents/${agentId}/capabilities`).then(
      ({ custom }) => {
        const model = custom?.model;
        if (!current) return;
        setLabel(
          model?.provider === "tether.playbook"
            ? "Offline playbook model: scripted, not a language model"
            : model
              ? `${model.provider} · ${model.modelId}`
              : undefined,
        );
      },
      () => current && setLabel(undefined),
    );
    return () => {
      current = false;
    };
  }, [agentId]);
  return label;
}
