/**
 * Runs the nightly ATR recomputation (atr-nightly.ts) once the day's session has closed: every
 * few minutes from 16:00 IST on a trading day (the evening digest's hour, digest/job.ts), until
 * every trailing ATR stop is done for the day. A rule done for the day is never touched again, so
 * several instances, or a retry, recompute each rule once. An instrument whose bar of the day is
 * not in the store yet is skipped and said in the log (once a day), and retried at the next run.
 */
import type { Logger } from 'pino';
import { afterCloseDayAt } from '../market/after-close.ts';
import type { AppDeps } from '../deps.ts';
import { createPeriodicJob, type PeriodicJob } from '../util/periodic-job.ts';
import type { AtrSource } from './atr-of.ts';
import { recomputeAtrStops, type AtrNight } from './atr-nightly.ts';

const INTERVAL_MS = 5 * 60_000;

export interface AtrNightlyDeps extends AtrSource {
  log: Logger;
  events: AppDeps['events'];
}

export function createAtrNightlyJob(
  deps: AtrNightlyDeps,
  opts: { now?: () => Date; intervalMs?: number } = {},
): PeriodicJob<AtrNight> {
  const now = opts.now ?? (() => new Date());
  let toldMissing = '';
  return createPeriodicJob({
    intervalMs: opts.intervalMs ?? INTERVAL_MS,
    log: deps.log,
    failure: 'nightly ATR recomputation failed; will retry',
    async run() {
      const at = now();
      const due = afterCloseDayAt(at);
      if (!due) return [];
      const night = await recomputeAtrStops(deps, due.day, at);
      if (night.rules > 0) {
        deps.log.info(
          { day: night.day, rules: night.rules, instruments: night.instruments },
          'trailing ATR stops recomputed',
        );
        await deps.events.publish(night.users.map((userId) => ({ type: 'rules' as const, userId })));
      }
      if (night.withoutBar.length > 0 && toldMissing !== night.day) {
        toldMissing = night.day;
        deps.log.warn(
          { day: night.day, instruments: night.withoutBar.length, first: night.withoutBar.slice(0, 10) },
          "ATR stops not recomputed: the day's bar is not in the store yet",
        );
      }
      return [night];
    },
  });
}
