/** A holding as the API shows it (docs/holdings.md, Routes): its row, account, instrument name and quote. */
import { positionFigures } from '@app/common/portfolio/position-math';
import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../db/client.ts';

/** What a holding is without its price: the row, its account and the instrument's name. */
export interface HoldingBase {
  id: string;
  symbol: string;
  exchange: string;
  isin: string | null;
  company_name: string;
  /** The instrument is in the exchange list (the symbol master); a typo'd symbol is not. */
  listed: boolean;
  quantity: number;
  average_price: number;
  broker_account_id: string;
  broker_name: string;
  broker_type: string;
  account_label: string;
  updated_at: string;
}

/** The latest quote of an instrument, as the quotes table holds it. */
export interface PriceLevels {
  ltp: number;
  prevClose: number | null;
  /** Epoch ms. */
  asOf: number;
  /** The source's delay, minutes. */
  delayMinutes: number;
  /** A last known price the feed could not refresh. */
  stale: boolean;
  /** The source has stopped pricing it (delisted?). */
  unavailable: boolean;
}

export interface HoldingRows {
  bases: HoldingBase[];
  /** The stored quote of each base (same index), null when there is none. */
  quotes: Array<PriceLevels | null>;
}

interface Row {
  id: string;
  symbol: string;
  exchange: string;
  isin: string | null;
  quantity: string;
  average_price: string;
  broker_account_id: string;
  updated_at: string;
  broker_name: string;
  broker_type: string;
  account_label: string;
  ltp: string | null;
  prev_close: string | null;
  as_of: string | null;
  delay_minutes: number | null;
  stale: boolean | null;
  unavailable: boolean | null;
  company_name: string | null;
}

const isoMs = (column: string) =>
  sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** One statement: holdings ⋈ accounts ⟕ quotes ⟕ instruments, in symbol order. */
export async function loadHoldingRows(db: Executor, userId: string): Promise<HoldingRows> {
  const rows = await queryRows<Row>(
    db,
    sql`select h.id, h.symbol, h.exchange, h.isin, h.quantity, h.average_price, h.broker_account_id,
          ${isoMs('h.updated_at')} as updated_at, a.broker_name, a.broker_type, a.account_label,
          q.ltp, q.prev_close, ${isoMs('q.as_of')} as as_of, q.delay_minutes, q.stale, q.unavailable,
          i.name as company_name
        from holdings h
        join broker_accounts a on a.id = h.broker_account_id
        left join quotes q on q.exchange = h.exchange and q.symbol = h.symbol
        left join instruments i on i.exchange = h.exchange and i.symbol = h.symbol
        where h.user_id = ${userId}
        order by h.symbol`,
  );
  const bases: HoldingBase[] = [];
  const quotes: Array<PriceLevels | null> = [];
  for (const r of rows) {
    bases.push({
      id: r.id,
      symbol: r.symbol,
      exchange: r.exchange,
      isin: r.isin,
      company_name: r.company_name ?? r.symbol,
      listed: r.company_name !== null,
      quantity: Number(r.quantity),
      average_price: Number(r.average_price),
      broker_account_id: r.broker_account_id,
      broker_name: r.broker_name,
      broker_type: r.broker_type,
      account_label: r.account_label,
      updated_at: r.updated_at,
    });
    quotes.push(
      r.ltp === null || r.as_of === null
        ? null
        : {
            ltp: Number(r.ltp),
            prevClose: r.prev_close === null ? null : Number(r.prev_close),
            asOf: Date.parse(r.as_of),
            delayMinutes: Number(r.delay_minutes ?? 0),
            stale: r.stale === true,
            unavailable: r.unavailable === true,
          },
    );
  }
  return { bases, quotes };
}

/**
 * Purchase value, market value, P&L and day change, rounded as position-math.ts says (docs/holdings.md)
 * (the live client computes them with the same function). Without a quote the holding has no
 * price: market value, P&L and its percent are null ("No price"), never the buy price.
 */
export function presentHolding(h: HoldingBase, quote: PriceLevels | null) {
  const { quantity, average_price: averagePrice } = h;
  const ltp = quote?.ltp ?? null;
  const prevClose = quote?.prevClose ?? null;
  const figures = positionFigures(quantity, averagePrice, quote);
  return {
    id: h.id,
    symbol: h.symbol,
    exchange: h.exchange,
    isin: h.isin,
    company_name: h.company_name,
    listed: h.listed,
    quantity,
    average_price: averagePrice,
    current_price: ltp,
    prev_close: prevClose,
    quote_as_of: quote ? new Date(quote.asOf).toISOString() : null,
    quote_delay_minutes: quote ? quote.delayMinutes : null,
    quote_stale: quote ? quote.stale : null,
    quote_unavailable: quote ? quote.unavailable : null,
    market_value: figures.market_value,
    purchase_value: figures.purchase_value,
    pnl: figures.pnl,
    pnl_percent: figures.pnl_percent,
    day_change: figures.day_change,
    day_change_percent: figures.day_change_percent,
    broker_account_id: h.broker_account_id,
    broker_name: h.broker_name,
    broker_type: h.broker_type,
    account_label: h.account_label,
    updated_at: h.updated_at,
  };
}

export type PresentedHolding = ReturnType<typeof presentHolding>;
