/** The latest quote per instrument, from the `quotes` table: the price rules are armed from. */
import type { ApiCurrentPrice } from '@app/common/api/rules';
import { EXCHANGES, type Exchange } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import { and, inArray, or, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { quotes } from '../db/schema.ts';

export interface LatestQuote {
  symbol: string;
  exchange: Exchange;
  ltp: number;
  prevClose: number | null;
  changePercent: number | null;
  asOf: Date;
}

const num = (v: string | null) => (v === null ? null : Number(v));

/** Latest quotes of `instruments`, keyed `NSE:RELIANCE`; instruments without one are absent. */
export async function latestQuotes(
  db: Executor,
  instruments: ReadonlyArray<{ symbol: string; exchange: Exchange }>,
): Promise<Map<string, LatestQuote>> {
  const found = new Map<string, LatestQuote>();
  if (instruments.length === 0) return found;
  const byExchange = new Map<Exchange, Set<string>>();
  for (const i of instruments) {
    byExchange.set(i.exchange, (byExchange.get(i.exchange) ?? new Set()).add(i.symbol));
  }
  const rows = await db
    .select()
    .from(quotes)
    .where(
      or(
        ...[...byExchange].map(([exchange, symbols]) =>
          and(eq(quotes.exchange, exchange), inArray(quotes.symbol, [...symbols])),
        ),
      ),
    );
  for (const row of rows) {
    found.set(instrumentKey(row.exchange, row.symbol), {
      symbol: row.symbol,
      exchange: row.exchange,
      ltp: Number(row.ltp),
      prevClose: num(row.prevClose),
      changePercent: num(row.changePercent),
      asOf: row.asOf,
    });
  }
  return found;
}

/**
 * GET /api/position-rules/current-prices: by symbol; `exchange` picks one, otherwise NSE is
 * preferred and BSE used when only BSE has a quote.
 */
export async function currentPrices(
  db: Executor,
  { symbols, exchange }: { symbols: readonly string[]; exchange?: Exchange | undefined },
): Promise<Record<string, ApiCurrentPrice>> {
  const exchanges: readonly Exchange[] = exchange ? [exchange] : EXCHANGES;
  const wanted = exchanges.flatMap((ex) => symbols.map((symbol) => ({ symbol, exchange: ex })));
  const found = await latestQuotes(db, wanted);
  const result: Record<string, ApiCurrentPrice> = {};
  for (const symbol of symbols) {
    const quote = exchanges.map((ex) => found.get(instrumentKey(ex, symbol))).find(Boolean);
    if (!quote) continue;
    result[symbol] = {
      ltp: quote.ltp,
      prev_close: quote.prevClose,
      change_percent: quote.changePercent,
      as_of: quote.asOf.toISOString(),
      exchange: quote.exchange,
    };
  }
  return result;
}
