/** How a refused model call is tried again: only when the provider says trying again may work. */
export interface RetryPolicy {
  /** Further attempts after the first. Default 2. */
  maxRetries: number;
  /** The first pause, doubled each time, unless the provider says how long to wait. Default 500 ms. */
  initialDelayMs: number;
  /** No pause is longer than this, whatever the provider asks. Default 10 s. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 10_000 };
