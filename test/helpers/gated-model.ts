import type { LanguageModelV3 } from "@ai-sdk/provider";

/**
 * A model whose next call waits, before it streams anything, until the test
 * lets it go: the run it belongs to has begun (RUN_STARTED is stored) and
 * stays live for as long as the test needs, on any machine.
 */
export function gatedModel(model: LanguageModelV3) {
  let gate: { entered: () => void; opened: Promise<void> } | undefined;
  const gated: LanguageModelV3 = {
    ...model,
    async doStream(call) {
      const waiting = gate;
      gate = undefined;
      if (waiting) {
        waiting.entered();
        await waiting.opened;
      }
      return model.doStream(call);
    },
  };
  return {
    model: gated,
    /**
     * Holds the next model call. `entered` resolves once a run reached it;
     * `release` lets it stream.
     */
    hold() {
      let release!: () => void;
      let entered!: () => void;
      const reached = new Promise<void>((resolve) => (entered = resolve));
      gate = { entered, opened: new Promise<void>((resolve) => (release = resolve)) };
      return { entered: reached, release };
    },
  };
}
