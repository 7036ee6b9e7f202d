/**
 * What a Tether client puts in `RunAgentInput.forwardedProps.tether`:
 * `trigger` (why the run exists) and `cancelOnDisconnect` (stop the run, and
 * the model call, when this client goes away; by default a run outlives its
 * client so the client can reconnect).
 */
export interface TetherForwardedProps {
  trigger?: unknown;
  cancelOnDisconnect?: boolean;
}

export function readTetherProps(forwardedProps: unknown): TetherForwardedProps {
  if (typeof forwardedProps !== "object" || forwardedProps === null) return {};
  const tether = (forwardedProps as { tether?: unknown }).tether;
  if (typeof tether !== "object" || tether === null) return {};
  const { trigger, cancelOnDisconnect } = tether as Record<string, unknown>;
  return { ...(trigger === undefined ? {} : { trigger }), ...(cancelOnDisconnect === true ? { cancelOnDisconnect: true } : {}) };
}
