// How a benchmark reports: `bench: <metric> = <number> <unit>` lines, the ratio of a figure to its
// target, and percentiles. Shared by bench/server.bench.ts and bench/publish.bench.ts.

export function line(metric: string, value: number, unit: string): void {
  const rounded = Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
  console.log(`bench: ${metric} = ${rounded} ${unit}`);
}

/** Ratio to target, > 1 is better: for rates value/target, for latencies target/value. */
export function ratio(metric: string, value: number, target: number, higherIsBetter: boolean): void {
  line(`${metric}_vs_target`, higherIsBetter ? value / target : target / Math.max(value, 1e-6), 'x');
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
