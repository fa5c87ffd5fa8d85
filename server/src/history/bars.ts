/**
 * GET /api/market/bars: one instrument's daily bars, adjusted for the bonuses and splits the
 * store of corporate actions knows (on any listing of the company: NSE and BSE share one bonus).
 */
import type { ApiDailyBar, MarketBarsQuery } from '@app/common/api/market-bars';
import { adjustBars, type PriceAdjustment } from '@app/common/history/adjust';
import type { DailyBar } from '@app/common/history/bars';
import { istDateOf } from '@app/common/market/calendar';
import { and, inArray, isNotNull, lte, or, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { corporateActions } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';
import type { InstrumentMaster } from '../instruments/master.ts';
import { readBars, readBarsOf } from './store.ts';

/** A year before `date` (`YYYY-MM-DD`). */
function yearBefore(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() - 1);
  return d.toISOString().slice(0, 10);
}

type Listing = { exchange: 'NSE' | 'BSE'; symbol: string };
const listingKey = (l: Listing) => `${l.exchange}:${l.symbol}`;

/** The instrument master's part that names a company's listings (one ISIN on NSE and BSE). */
export type Listings = Pick<InstrumentMaster, 'listingsOf'>;

/**
 * Every listing of the instrument's company (its own first), whose bonuses and splits adjust its
 * bars: NSE's file brings the bonus of a company listed on BSE too. Just its own when the master
 * does not list it.
 */
export function companyOf(instruments: Listings, listing: Listing): Listing[] {
  const listings = instruments.listingsOf(listing.symbol, listing.exchange);
  return listings.length > 0 ? listings : [{ exchange: listing.exchange, symbol: listing.symbol }];
}

/**
 * The bonuses and splits with an ex-date up to `today` of each listing given, in one query:
 * `of(listings)` then answers a company's (one per ex-date and kind, whichever listing has it).
 */
export async function adjustmentsOf(db: Executor, listings: readonly Listing[], today: string) {
  const rows =
    listings.length === 0
      ? []
      : await db
          .select({
            exchange: corporateActions.exchange,
            symbol: corporateActions.symbol,
            exDate: corporateActions.exDate,
            kind: corporateActions.kind,
            ratio: corporateActions.ratio,
          })
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
  const byListing = new Map<string, typeof rows>();
  for (const r of rows) {
    const key = listingKey(r);
    byListing.set(key, [...(byListing.get(key) ?? []), r]);
  }
  return (company: readonly Listing[]): PriceAdjustment[] => {
    const unique = new Map<string, PriceAdjustment>();
    for (const r of company.flatMap((l) => byListing.get(listingKey(l)) ?? [])) {
      unique.set(`${r.exDate}|${r.kind}`, { exDate: r.exDate, ratio: Number(r.ratio) });
    }
    return [...unique.values()];
  };
}

/** The instrument's adjusted bars; NotFound when the master does not list it. */
export async function loadAdjustedBars(
  deps: { db: Executor; instruments: Pick<InstrumentMaster, 'listingsOf'> },
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
  return adjustBars(bars, (await adjustmentsOf(deps.db, listings, today))(listings));
}

/**
 * Many instruments' adjusted bars from `from` to `to`, keyed `EXCHANGE:SYMBOL` (an instrument
 * without bars is absent): two queries in all, the bars and the corporate actions, whatever the
 * count (Price Guard's preview). Instruments the master does not list are read unadjusted.
 */
export async function loadAdjustedBarsOf(
  deps: { db: Executor; instruments: Pick<InstrumentMaster, 'listingsOf'> },
  q: { instruments: readonly Listing[]; from: string; to: string },
  now = new Date(),
): Promise<Map<string, DailyBar[]>> {
  const bars = new Map<string, DailyBar[]>();
  for (const row of await readBarsOf(deps.db, q)) {
    const dates = row.dates.split(',');
    const [open, high, low, close, volume] = [row.opens, row.highs, row.lows, row.closes, row.volumes].map(
      (list) => list.split(',').map(Number),
    ) as [number[], number[], number[], number[], number[]];
    bars.set(
      listingKey(row),
      dates.map((date, i) => ({
        date,
        open: open[i]!,
        high: high[i]!,
        low: low[i]!,
        close: close[i]!,
        volume: volume[i]!,
      })),
    );
  }
  const companies = new Map(
    [...bars.keys()].map((key) => {
      const [exchange, symbol] = key.split(':') as [Listing['exchange'], string];
      return [key, companyOf(deps.instruments, { exchange, symbol })];
    }),
  );
  const adjustments = await adjustmentsOf(deps.db, [...companies.values()].flat(), istDateOf(now));
  for (const [key, company] of companies) bars.set(key, adjustBars(bars.get(key)!, adjustments(company)));
  return bars;
}
