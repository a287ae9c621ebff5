/** What a benchmark reports: one figure, its unit, and the target it is held to. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** The figure to meet; omitted for figures reported without a target. */
  target?: number;
  /** Whether lower or higher is better, to compare with the target. */
  better: 'lower' | 'higher';
  note?: string;
}

export interface Benchmark {
  /** Short name shown in the report, e.g. 'server'. */
  name: string;
  run(): Promise<BenchResult[]>;
}

export function meetsTarget(r: BenchResult): boolean | undefined {
  if (r.target === undefined) return undefined;
  return r.better === 'lower' ? r.value <= r.target : r.value >= r.target;
}

/** Median of a list of samples. */
export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
