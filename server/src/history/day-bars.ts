/**
 * The day's own bar (docs/history.md, "From the day's quotes"): every minute, once a trading day's
 * session has closed and it is 16:00 IST or later (digest/job.ts's rule, the exchange calendar),
 * each watched instrument's day bar built from the quotes (`price_bars`, interval `1d`) is added
 * to `daily_bars` with source `quotes` and volume 0 (quotes carry no volume). Added where the
 * store has no bar for the day, never over one: a bhavcopy loaded earlier stays, and one loaded
 * later replaces the quotes' bar (the exchange's own wins). Several instances, or a run again,
 * add nothing more.
 */
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Executor } from '../db/client.ts';
import { afterCloseDayAt, istMidnight } from '../market/after-close.ts';
import { isWatchedSql } from '../market/watched.ts';
import { createPeriodicJob, type PeriodicJob } from '../util/periodic-job.ts';

const DAY_BARS_INTERVAL_MS = 60_000;

/** What a run did: the trading day and how many bars it added. */
export interface DayBarsOutcome {
  day: string;
  added: number;
}

export type DayBarsJob = PeriodicJob<DayBarsOutcome>;

/** Adds the day's bars from the quotes where the store has none; answers how many. */
async function appendDayBars(db: Executor, day: string): Promise<number> {
  const [row] = await queryRows<{ added: number }>(
    db,
    sql`with written as (
          insert into daily_bars (exchange, symbol, date, open, high, low, close, volume, source)
          select p.exchange, p.symbol, ${day}::date, p.open, p.high, p.low, p.close, 0, 'quotes'
          from price_bars p
          where p.interval = '1d' and p.bucket = ${istMidnight(day).toISOString()}::timestamptz
            and (${isWatchedSql(sql`p.exchange`, sql`p.symbol`)})
          on conflict (exchange, symbol, date) do nothing
          returning 1
        )
        select count(*)::int as added from written`,
  );
  return row?.added ?? 0;
}

export function createDayBarsJob(
  deps: { db: Executor; log: Logger; now: () => Date },
  opts: { intervalMs?: number } = {},
): DayBarsJob {
  /** The last day this instance appended: later runs that evening have nothing to add. */
  let doneDay: string | undefined;
  return createPeriodicJob({
    async run() {
      const due = afterCloseDayAt(deps.now());
      if (!due || due.day === doneDay) return [];
      const added = await appendDayBars(deps.db, due.day);
      doneDay = due.day;
      if (added > 0) deps.log.info({ day: due.day, added }, "the day's bars added from the quotes");
      return [{ day: due.day, added }];
    },
    intervalMs: opts.intervalMs ?? DAY_BARS_INTERVAL_MS,
    log: deps.log,
    failure: "the day's bars from the quotes failed; will retry",
  });
}
