/** How a quantity moved over the samples: its range and its least-squares slope. */
export interface Trend {
  min: number;
  max: number;
  /** (max − min) / min, in percent. */
  spreadPercent: number;
  /** The fitted line's slope, per minute, in the samples' unit and in percent of their mean. */
  slopePerMinute: number;
  slopePercentPerMinute: number;
}

export function trend(points: Array<{ seconds: number; value: number }>): Trend {
  const n = points.length;
  const meanT = points.reduce((sum, point) => sum + point.seconds, 0) / n;
  const meanV = points.reduce((sum, point) => sum + point.value, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const { seconds, value } of points) {
    covariance += (seconds - meanT) * (value - meanV);
    variance += (seconds - meanT) ** 2;
  }
  const slopePerMinute = variance ? (covariance / variance) * 60 : 0;
  const min = Math.min(...points.map((point) => point.value));
  const max = Math.max(...points.map((point) => point.value));
  return { min, max, spreadPercent: ((max - min) / min) * 100, slopePerMinute, slopePercentPerMinute: (slopePerMinute / meanV) * 100 };
}
