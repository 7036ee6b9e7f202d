/** How often a Redis taken for down is asked again (PING) whether it answers. */
const PROBE_MS = 500;

/**
 * Whether this instance takes Redis for down. Every Redis call has a time
 * limit, so a stalled Redis (stopped, swapping, a cut network that sends no
 * reset) shows as a call that timed out, as a dead one shows as an error:
 * either way the caller falls back to the store and tells `failed`. From
 * then on the hub does not ask Redis and wait for a timeout again (followers
 * poll the store, cancels are recorded there, tails come from the store)
 * until a probe gets an answer.
 */
export interface RedisHealth {
  /** True from a failed call until a probe gets an answer. */
  readonly down: boolean;
  /** A Redis call failed or timed out; an error Redis answered with (a ReplyError) says it is up, and is ignored. */
  failed(error: unknown): void;
  /** Stops probing. */
  close(): void;
}

export interface RedisHealthOptions {
  /** Asks Redis whether it answers (a PING under the command timeout). */
  probe: () => Promise<unknown>;
  /** Told once per outage, with the first failure. */
  onDown?: (error: unknown) => void;
  /** Told when Redis answers again after an outage. */
  onUp?: () => void;
  probeMs?: number;
}

export function watchRedisHealth(options: RedisHealthOptions): RedisHealth {
  const probeMs = options.probeMs ?? PROBE_MS;
  let down = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const probeLater = () => {
    if (closed) return;
    timer = setTimeout(() => {
      options.probe().then(() => {
        if (closed) return;
        down = false;
        options.onUp?.();
      }, probeLater);
    }, probeMs);
    timer.unref();
  };

  return {
    get down() {
      return down;
    },
    failed(error) {
      if (closed || down || isReplyError(error)) return;
      down = true;
      options.onDown?.(error);
      probeLater();
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

/** An error Redis itself answered with (a wrong type, an id too small): Redis is up. */
function isReplyError(error: unknown): boolean {
  return error instanceof Error && error.name === "ReplyError";
}
