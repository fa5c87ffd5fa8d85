/**
 * History from Yahoo for the instruments the store lacks (docs/history.md, "From Yahoo"): when
 * Yahoo is the quote source, every minute, each watched instrument with no daily bar at all is
 * asked of Yahoo's chart API once, five years, one request at a time with a pause between
 * requests. The bars (splits undone: as printed) are added with source `yahoo`, never over a bar
 * the store has. Each ask is kept in `bar_backfills`: answered, never asked again; failed, asked
 * again after a back-off (Retry-After when Yahoo sends one; a 429 also pauses this instance's
 * requests for its Retry-After, at least a minute). The row is claimed before the request (a lease), so
 * several instances ask Yahoo once per instrument.
 */
import { istDateOf } from '@app/common/market/calendar';
import { STREAMING_SOURCES, type Config } from '@app/config';
import { QuoteProviderError, type YahooChart } from '@app/streamer';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor } from '../db/client.ts';
import { watchedInstrumentsSql } from '../market/watched.ts';
import { createPeriodicJob, type PeriodicJob } from '../util/periodic-job.ts';

/** Whether Yahoo is the quote source: polled (QUOTE_PROVIDER), or beside a broker's stream (QUOTE_FALLBACK). */
export function quotesFromYahoo(config: Pick<Config, 'QUOTE_PROVIDER' | 'QUOTE_FALLBACK'>): boolean {
  if (config.QUOTE_PROVIDER === 'yahoo') return true;
  const streaming: readonly string[] = STREAMING_SOURCES;
  return streaming.includes(config.QUOTE_PROVIDER) && config.QUOTE_FALLBACK === 'yahoo';
}

/** The least time between two chart requests: under three a second. */
export const BACKFILL_GAP_MS = 400;
const BACKFILL_INTERVAL_MS = 60_000;
/** Instruments asked per run at most (about half a minute of requests). */
const PER_RUN = 60;
/** How long an instance holds an instrument it is asking for. */
const LEASE_MS = 10 * 60_000;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** When a failed instrument may be asked again: doubling from 5 minutes up to a day; a week for a refusal (unknown symbol). */
function backOffMs(attempts: number, err: QuoteProviderError): number {
  if (!err.retryable) return 7 * DAY;
  const doubling = Math.min(5 * MINUTE * 2 ** Math.max(0, attempts - 1), DAY);
  return Math.max(doubling, err.retryAfterMs ?? 0);
}

export interface BackfillDeps {
  db: Executor;
  log: Logger;
  chart: YahooChart;
  now: () => Date;
  /** Pause between two requests (default BACKFILL_GAP_MS). */
  gapMs?: number;
}

/** One instrument's outcome: the bars stored, or the failure. */
export interface BackfillOutcome {
  exchange: string;
  symbol: string;
  bars?: number;
  error?: string;
}

export type BackfillJob = PeriodicJob<BackfillOutcome>;

interface Claimed {
  exchange: string;
  symbol: string;
  yahoo_symbol: string;
  attempts: number;
}

/** Claims the next watched instrument with no bars that is due to be asked, or none. */
async function claimNext(db: Executor, now: Date): Promise<Claimed | undefined> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + LEASE_MS).toISOString();
  const [row] = await queryRows<Claimed>(
    db,
    sql`with w as (${watchedInstrumentsSql()}),
        candidate as (
          select i.exchange, i.symbol, i.yahoo_symbol from w
          join instruments i on i.exchange = w.exchange and i.symbol = w.symbol
          where not exists (select 1 from daily_bars b where b.exchange = i.exchange and b.symbol = i.symbol)
            and not exists (
              select 1 from bar_backfills f
              where f.exchange = i.exchange and f.symbol = i.symbol and f.source = 'yahoo'
                and (f.done_at is not null or f.next_attempt_at > ${at}::timestamptz))
          order by i.exchange, i.symbol
          limit 1
        )
        insert into bar_backfills as f (exchange, symbol, source, next_attempt_at)
        select exchange, symbol, 'yahoo', ${until}::timestamptz from candidate
        on conflict (exchange, symbol, source) do update set next_attempt_at = excluded.next_attempt_at
          where f.done_at is null and f.next_attempt_at <= ${at}::timestamptz
        returning f.exchange, f.symbol, f.attempts, (select yahoo_symbol from candidate) as yahoo_symbol`,
  );
  return row;
}

/** Adds the bars where the store has none for the day; answers how many were added. */
async function storeYahooBars(
  db: Executor,
  claimed: Claimed,
  bars: Awaited<ReturnType<YahooChart['dailyBars']>>,
): Promise<number> {
  if (bars.length === 0) return 0;
  const column = (f: keyof (typeof bars)[number]) => pgArray(bars.map((b) => b[f]));
  const [row] = await queryRows<{ bars: number }>(
    db,
    sql`with written as (
          insert into daily_bars (exchange, symbol, date, open, high, low, close, volume, source)
          select ${claimed.exchange}, ${claimed.symbol}, r.date, r.open, r.high, r.low, r.close, r.volume, 'yahoo'
          from unnest(${column('date')}::date[], ${column('open')}::numeric[], ${column('high')}::numeric[],
            ${column('low')}::numeric[], ${column('close')}::numeric[], ${column('volume')}::bigint[])
            as r(date, open, high, low, close, volume)
          on conflict (exchange, symbol, date) do nothing
          returning 1
        )
        select count(*)::int as bars from written`,
  );
  return row?.bars ?? 0;
}

async function settle(
  db: Executor,
  claimed: Claimed,
  outcome: { bars: number } | { error: string; retryAt: Date },
) {
  const key = sql`exchange = ${claimed.exchange} and symbol = ${claimed.symbol} and source = 'yahoo'`;
  await db.execute(
    'bars' in outcome
      ? sql`update bar_backfills set done_at = now(), bars = ${outcome.bars}, attempts = attempts + 1,
              last_error = null where ${key}`
      : sql`update bar_backfills set attempts = attempts + 1, last_error = ${outcome.error},
              next_attempt_at = ${outcome.retryAt.toISOString()}::timestamptz where ${key}`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The backfill job (see the module comment); `runOnce()` asks for what is due now. */
export function createBackfillJob(deps: BackfillDeps, opts: { intervalMs?: number } = {}): BackfillJob {
  const gapMs = deps.gapMs ?? BACKFILL_GAP_MS;
  /** After a 429, no request to Yahoo from this instance before then (epoch ms). */
  let pausedUntil = 0;
  return createPeriodicJob({
    async run(stopped) {
      const outcomes: BackfillOutcome[] = [];
      if (deps.now().getTime() < pausedUntil) return outcomes;
      while (!stopped() && outcomes.length < PER_RUN) {
        const now = deps.now();
        const claimed = await claimNext(deps.db, now);
        if (!claimed) break;
        if (outcomes.length > 0) await sleep(gapMs);
        const { exchange, symbol } = claimed;
        try {
          const bars = await deps.chart.dailyBars(claimed.yahoo_symbol, istDateOf(now));
          const stored = await storeYahooBars(deps.db, claimed, bars);
          await settle(deps.db, claimed, { bars: stored });
          outcomes.push({ exchange, symbol, bars: stored });
        } catch (err) {
          if (!(err instanceof QuoteProviderError)) throw err;
          const retryAt = new Date(now.getTime() + backOffMs(claimed.attempts + 1, err));
          await settle(deps.db, claimed, { error: err.message, retryAt });
          outcomes.push({ exchange, symbol, error: err.message });
          if (err.status === 429) {
            pausedUntil = now.getTime() + Math.max(err.retryAfterMs ?? 0, MINUTE);
            break;
          }
        }
      }
      if (outcomes.length > 0)
        deps.log.info(
          { asked: outcomes.length, failed: outcomes.filter((o) => o.error).length },
          'daily history asked of Yahoo',
        );
      return outcomes;
    },
    intervalMs: opts.intervalMs ?? BACKFILL_INTERVAL_MS,
    log: deps.log,
    failure: 'daily history from Yahoo failed; will retry',
  });
}
