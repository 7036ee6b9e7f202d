/**
 * Creates a session as a tab that hears nothing of the other tabs' runs (a
 * window on another device): there is no BroadcastChannel while it is made.
 */
export function apartFromOtherTabs<T>(create: () => T): T {
  const channel = globalThis.BroadcastChannel;
  delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel;
  try {
    return create();
  } finally {
    globalThis.BroadcastChannel = channel;
  }
}
