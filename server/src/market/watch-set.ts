/**
 * The watch set: every listed instrument someone holds or has an active rule or price alert on.
 * The streamer polls exactly these. Rebuilt after changes (debounced) and periodically, so a
 * Redis restart that lost it is repaired by itself.
 */
import { instrumentKey } from '@app/common/market/tick-batch';
import type { MarketBus, WatchedInstrument } from '@app/streamer';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { queryRows, type Executor } from '../db/client.ts';

/**
 * The instruments to poll: those watched that the symbol master lists. A symbol the master does
 * not know (a typo, a made-up name, a stock listed after the last sync) is stored and shown,
 * but not polled until a sync lists it: no user's data can grow the feed for everyone.
 * Each held one carries its holders' average buy price: the simulated market starts an
 * instrument it has no price level for there, never at an invented number. A BSE one carries
 * its scrip code, the name Yahoo lists it under.
 */
export async function loadWatchedInstruments(db: Executor): Promise<WatchedInstrument[]> {
  const rows = await queryRows<{
    symbol: string;
    exchange: 'NSE' | 'BSE';
    reference: string | null;
    scrip_code: string | null;
  }>(
    db,
    sql`
    select w.symbol, w.exchange, r.reference, i.scrip_code from (
      select symbol, exchange from holdings
      union select symbol, exchange from position_rules where is_active
      union select symbol, exchange from price_alerts where is_active
    ) w
    left join (
      select symbol, exchange,
        sum(quantity * average_price) / nullif(sum(quantity), 0) as reference
      from holdings group by symbol, exchange
    ) r on r.exchange = w.exchange and r.symbol = w.symbol
    join instruments i on i.exchange = w.exchange and i.symbol = w.symbol`,
  );
  return rows
    .map((r): WatchedInstrument => {
      const instrument: WatchedInstrument = { symbol: r.symbol, exchange: r.exchange };
      const reference = r.reference === null ? Number.NaN : Math.round(Number(r.reference) * 100) / 100;
      if (Number.isFinite(reference) && reference > 0) instrument.referencePrice = reference;
      if (r.exchange === 'BSE' && r.scrip_code) instrument.scripCode = r.scrip_code;
      return instrument;
    })
    .sort((a, b) => instrumentKey(a.exchange, a.symbol).localeCompare(instrumentKey(b.exchange, b.symbol)));
}

export interface WatchSetKeeper {
  /** Schedules a rebuild soon (coalesces bursts of changes). */
  changed(): void;
  rebuild(): Promise<void>;
  stop(): void;
}

export function createWatchSetKeeper(
  db: Executor,
  bus: MarketBus,
  log: Logger,
  opts = { debounceMs: 200, refreshMs: 30_000 },
): WatchSetKeeper {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const rebuild = async () => {
    try {
      await bus.replaceWatchSet(await loadWatchedInstruments(db));
    } catch (err) {
      log.warn({ err }, 'watch set rebuild failed; will retry');
    }
  };
  const run = () => (running = (running ?? Promise.resolve()).then(rebuild));
  const interval = setInterval(run, opts.refreshMs);
  interval.unref();
  return {
    changed() {
      clearTimeout(timer);
      timer = setTimeout(run, opts.debounceMs);
      timer.unref();
    },
    rebuild: () => run(),
    stop() {
      clearTimeout(timer);
      clearInterval(interval);
    },
  };
}
