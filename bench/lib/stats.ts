// The one percentile of the benches: nearest rank, so that every figure is a time that was
// measured (p99 of 95 samples is the slowest); Infinity (a request that got no answer) sorts last.
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1] ?? NaN;
}

export const median = (values: number[]) => percentile(values, 0.5);

/** How often each key came, e.g. statuses: `{ "200": 9, "502": 1 }`. */
export function tally(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}
