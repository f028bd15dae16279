// Percentiles and the result shape every benchmark returns.

/** Nearest-rank percentile of an ascending sorted sample (p in 0..100). */
function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  const index = Math.min(sorted.length - 1, Math.max(0, rank - 1));
  return sorted[index]!;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface LatencySummary {
  readonly count: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
}

/** Summarises a sample (any unit); sorts a copy, so the caller's array is left alone. */
export function summarize(sample: Float64Array | readonly number[]): LatencySummary {
  const sorted = Float64Array.from(sample).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    mean: sorted.length > 0 ? sum / sorted.length : Number.NaN,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    max: sorted.length > 0 ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

export type Comparison = '<' | '<=' | '>=' | '==';

export interface Target {
  readonly op: Comparison;
  readonly value: number;
}

export interface Metric {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly target?: Target | undefined;
  /** Set when there is a target: did the measured value meet it? */
  readonly pass?: boolean | undefined;
}

export interface BenchResult {
  readonly name: string;
  readonly title: string;
  readonly metrics: readonly Metric[];
  /** What a reader needs to interpret the numbers (setup, caveats). */
  readonly notes: readonly string[];
  /** Raw figures for --json consumers (per-run times, percentiles, counts). */
  readonly details: Record<string, unknown>;
  /** Set when the benchmark could not run to completion. */
  readonly error?: string | undefined;
}

export function metric(name: string, value: number, unit: string, target?: Target): Metric {
  if (!target) return { name, value, unit };
  return { name, value, unit, target, pass: meets(value, target) };
}

function meets(value: number, target: Target): boolean {
  if (!Number.isFinite(value)) return false;
  switch (target.op) {
    case '<':
      return value < target.value;
    case '<=':
      return value <= target.value;
    case '>=':
      return value >= target.value;
    case '==':
      return value === target.value;
  }
}

/** Nanoseconds (bigint from process.hrtime.bigint) to milliseconds. */
export function nsToMs(ns: bigint): number {
  return Number(ns) / 1e6;
}
