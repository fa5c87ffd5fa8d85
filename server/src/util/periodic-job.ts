/**
 * A job that runs now and every `intervalMs` (corporate actions, evening digests): runs never
 * overlap (one asked for during another waits for it, then looks again), a failed run is logged
 * and the next tick retries, and `stop` waits for the run in flight.
 */
import type { Logger } from 'pino';

export interface PeriodicJob<T> {
  start(): void;
  /** One run now (after any in flight); resolves with what it did. */
  runOnce(): Promise<T[]>;
  stop(): Promise<void>;
}

export function createPeriodicJob<T>(opts: {
  /** One pass; `stopped()` turns true when the job is stopping (finish the item in hand, then return). */
  run(stopped: () => boolean): Promise<T[]>;
  intervalMs: number;
  log: Logger;
  /** Logged when a run fails. */
  failure: string;
}): PeriodicJob<T> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T[]> | undefined;
  let stopped = false;

  function runOnce(): Promise<T[]> {
    const previous = running ?? Promise.resolve([]);
    const next = previous.catch(() => []).then(() => opts.run(() => stopped));
    running = next;
    void next
      .finally(() => {
        if (running === next) running = undefined;
      })
      .catch(() => undefined);
    return next;
  }

  const tick = () => {
    runOnce().catch((err: unknown) => opts.log.error({ err }, opts.failure));
  };

  return {
    start() {
      tick();
      timer = setInterval(tick, opts.intervalMs);
      timer.unref();
    },
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
