export interface Percentiles {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of the values (NaN each when there are none). */
export function percentiles(values: ArrayLike<number>): Percentiles {
  const sorted = Float64Array.from(values).sort();
  const at = (fraction: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * fraction) - 1)]! : Number.NaN);
  return { count: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) };
}
