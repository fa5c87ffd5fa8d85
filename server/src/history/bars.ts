/**
 * GET /api/market/bars: one instrument's daily bars, adjusted for the bonuses and splits the
 * store of corporate actions knows (on any listing of the company: NSE and BSE share one bonus).
 */
import type { ApiDailyBar, MarketBarsQuery } from '@app/common/api/market-bars';
import { adjustBars, type PriceAdjustment } from '@app/common/history/adjust';
import { istDateOf } from '@app/common/market/calendar';
import { and, inArray, isNotNull, lte, or, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { corporateActions } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';
import type { InstrumentMaster } from '../instruments/master.ts';
import { readBars } from './store.ts';

/** A year before `date` (`YYYY-MM-DD`). */
function yearBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - 1);
  return d.toISOString().slice(0, 10);
}

/** The bonuses and splits of the company, ex-date up to `today` (one per ex-date and kind). */
export async function adjustmentsOf(
  db: Executor,
  listings: readonly { exchange: 'NSE' | 'BSE'; symbol: string }[],
  today: string,
): Promise<PriceAdjustment[]> {
  const rows = await db
    .select({ exDate: corporateActions.exDate, kind: corporateActions.kind, ratio: corporateActions.ratio })
    .from(corporateActions)
    .where(
      and(
        or(
          ...listings.map((l) =>
            and(eq(corporateActions.exchange, l.exchange), eq(corporateActions.symbol, l.symbol)),
          ),
        ),
        inArray(corporateActions.kind, ['BONUS', 'SPLIT']),
        isNotNull(corporateActions.ratio),
        lte(corporateActions.exDate, today),
      ),
    );
  const unique = new Map(
    rows.map((r) => [`${r.exDate}|${r.kind}`, { exDate: r.exDate, ratio: Number(r.ratio) }]),
  );
  return [...unique.values()];
}

/** The instrument's adjusted bars; NotFound when the master does not list it. */
export async function loadAdjustedBars(
  deps: { db: Executor; instruments: InstrumentMaster },
  q: MarketBarsQuery,
  now = new Date(),
): Promise<ApiDailyBar[]> {
  const listings = deps.instruments.listingsOf(q.symbol, q.exchange);
  const instrument = listings[0];
  if (!instrument) throw new NotFound(`${q.symbol} is not a listed ${q.exchange} instrument`);
  const today = istDateOf(now);
  const to = q.to ?? today;
  const from = q.from ?? yearBefore(to);
  const stored = await readBars(deps.db, {
    exchange: instrument.exchange,
    symbol: instrument.symbol,
    from,
    to,
  });
  if (stored.length === 0) return [];
  const bars = stored.map((b) => ({
    date: b.date,
    open: Number(b.open),
    high: Number(b.high),
    low: Number(b.low),
    close: Number(b.close),
    volume: Number(b.volume),
  }));
  return adjustBars(bars, await adjustmentsOf(deps.db, listings, today));
}
