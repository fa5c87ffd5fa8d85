/** What every benchmark returns and how the runner calls it. */

/** One line of bench/results/latest.json and of the table in latest.md. */
export interface BenchResult {
  /** Stable key, `B1-p99`: the benchmark's id, then what this line measures. */
  id: string;
  name: string;
  /** The measurement; null only when it could not be taken (the target then says why). */
  value: number | null;
  unit: string;
  /** The same measurement on the baseline, in the same run; null when there is none. */
  baseline: number | null;
  /** value / baseline, or null. */
  ratio: number | null;
  /** The target in words, e.g. `p99 ≤ 1.5 × baseline and < 100 ms`. */
  target: string;
  pass: boolean;
}

export interface BenchContext {
  /** The small size `npm test` runs: proves the benchmark works, says nothing about speed. */
  quick: boolean;
  /** A PostgreSQL server to create fresh databases on, when one is reachable. */
  postgresUrl?: string;
  /** Progress lines (stderr in `npm run bench`, silent in tests). */
  log(message: string): void;
}

/** A benchmark's outcome: its result lines, notes for latest.md, and proof of the work it did. */
export interface BenchOutcome<Evidence = unknown> {
  results: BenchResult[];
  /** Context for a reader of latest.md (steps of a ramp, which database, caveats). */
  notes: string[];
  /** What the quick tests check: every socket got every batch, rows were committed, ... */
  evidence: Evidence;
}

export interface Benchmark<Evidence = unknown> {
  /** `B1`: what `npm run bench -- B1` selects. */
  id: string;
  title: string;
  run(ctx: BenchContext): Promise<BenchOutcome<Evidence>>;
}

/** Builds a result line; ratio is value / baseline when both are known. */
export function result(line: Omit<BenchResult, 'ratio'> & { ratio?: number | null }): BenchResult {
  const ratio =
    line.ratio !== undefined
      ? line.ratio
      : line.value !== null && line.baseline !== null && line.baseline !== 0
        ? line.value / line.baseline
        : null;
  return { ...line, ratio: ratio === null ? null : round(ratio, 3) };
}

/** Rounds to `digits` decimals (results are read by people). */
export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
