/**
 * A streaming feed's periodic work (tick batches, watch-set reads, fallback polls, state
 * reports): each task runs every `everyMs` from the start of the previous run, never two runs at
 * once, a failure logged and the next run kept.
 */
import type { Logger } from 'pino';

/** One periodic task. */
export interface PeriodicTaskOptions {
  everyMs: number;
  /** Delay before the first run. */
  firstMs: number;
  task: () => Promise<void>;
  /** Runs only while this holds; once false, no further run is scheduled. */
  active: () => boolean;
  now: () => number;
  log: Logger;
  /** Names the task in the log line of a failure. */
  what: string;
}

/** Schedules the task; the returned function stops it and waits for a running run. */
export function startPeriodicTask(options: PeriodicTaskOptions): () => Promise<void> {
  const { everyMs, task, active, now, log, what } = options;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  const tick = () => {
    if (!active() || inFlight) return;
    const begun = now();
    inFlight = task()
      .catch((err: unknown) => log.error({ err }, `${what} failed`))
      .finally(() => {
        inFlight = undefined;
        if (active()) timer = setTimeout(tick, Math.max(0, begun + everyMs - now()));
      });
  };
  timer = setTimeout(tick, options.firstMs);
  return async () => {
    clearTimeout(timer);
    await inFlight;
  };
}
