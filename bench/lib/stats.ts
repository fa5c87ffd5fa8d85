/** Order statistics over samples (milliseconds, bytes, ...). */

/** The p-th percentile (0–100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds (polling); the time it held, or null at `deadline`. */
export async function until(
  check: () => Promise<boolean>,
  deadline: number,
  everyMs = 100,
): Promise<number | null> {
  for (;;) {
    if (await check()) return Date.now();
    if (Date.now() >= deadline) return null;
    await sleep(everyMs);
  }
}

/** The largest sample (without spreading a long array into arguments); NaN for none. */
export function max(samples: readonly number[]): number {
  let m = -Infinity;
  for (const s of samples) if (s > m) m = s;
  return samples.length ? m : NaN;
}

/**
 * Runs the phases one after the other (timed runs must not overlap), or all at once when
 * `together` (quick sizes, where only the work matters). Settles them all, then rejects with the
 * first failure, so no phase is left running.
 */
export async function phases<T extends unknown[]>(
  together: boolean,
  ...tasks: { [K in keyof T]: () => Promise<T[K]> }
): Promise<T> {
  const settled: PromiseSettledResult<unknown>[] = [];
  if (together) settled.push(...(await Promise.allSettled(tasks.map((task) => task()))));
  else for (const task of tasks) settled.push(...(await Promise.allSettled([task()])));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as T;
}
