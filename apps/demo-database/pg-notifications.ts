import pg from "pg";
import { quoteIdentifier } from "./quote-identifier.ts";

export interface NotificationHandlers {
  /** A notification's payload, as `pg_notify` sent it. */
  onNotification(payload: string): void;
  /**
   * Called each time the connection listens again after it broke: what was
   * sent meanwhile was missed, so read again whatever the notifications keep
   * up to date. Not called for the first listen.
   */
  onResubscribed(): void | Promise<void>;
}

export interface NotificationListener {
  close(): Promise<void>;
}

/** How long to wait before listening again after the connection broke: doubling from the first, up to the last. */
const RETRY_MS = { first: 250, last: 10_000 };

/**
 * LISTENs on a channel on a connection of its own, and listens again,
 * without end, when that connection breaks (a database restart, an
 * administrator's `pg_terminate_backend`): a lost connection never takes the
 * process down, and the caller hears when it is back so it can catch up.
 * The first connection must succeed: that failure is thrown.
 */
export async function listenForNotifications(options: {
  connectionString: string;
  channel: string;
  handlers: NotificationHandlers;
  onError?: (error: unknown) => void;
}): Promise<NotificationListener> {
  const { channel, handlers } = options;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = RETRY_MS.first;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: options.connectionString, application_name: "tether-demo-listen", connectionTimeoutMillis: 5000 });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      void next.end().catch(() => undefined);
      // Lost while still connecting: the failed connect says so, and its caller tries again (one retry at a time).
      if (client !== next) return;
      client = undefined;
      if (closed) return;
      if (error) options.onError?.(error);
      retry = setTimeout(() => void reconnect(), delay);
      retry.unref();
      delay = Math.min(delay * 2, RETRY_MS.last);
    };
    // Without these a broken connection would raise an unhandled 'error' and end the process.
    next.on("error", onLost);
    next.on("end", () => onLost());
    next.on("notification", (message) => {
      if (message.channel !== channel || message.payload === undefined) return;
      try {
        handlers.onNotification(message.payload);
      } catch (error) {
        // Thrown from a driver's event, it would end the process.
        options.onError?.(error);
      }
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${quoteIdentifier(channel)}`);
    } catch (error) {
      lost = true;
      await next.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      lost = true;
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    delay = RETRY_MS.first;
  }

  async function reconnect() {
    retry = undefined;
    if (closed) return;
    try {
      await connect();
    } catch (error) {
      options.onError?.(error);
      if (closed) return;
      retry = setTimeout(() => void reconnect(), delay);
      retry.unref();
      delay = Math.min(delay * 2, RETRY_MS.last);
      return;
    }
    try {
      await handlers.onResubscribed();
    } catch (error) {
      // Not caught up: drop this connection, so the next one tries again.
      options.onError?.(error);
      await client?.end().catch(() => undefined);
    }
  }

  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
