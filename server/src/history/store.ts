/**
 * Writing a bhavcopy's rows into `daily_bars` and reading one instrument's bars back. The rows
 * are matched to the instrument master in the statement that writes them: NSE by symbol (an old
 * symbol through the renames), BSE by scrip code, else ISIN. One statement per file; a file
 * loaded again rewrites its day (upsert).
 */
import type { Exchange } from '@app/common/instruments/types';
import { sql, type SQL } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor } from '../db/client.ts';
import type { Bhavcopy } from './bhavcopy.ts';

export interface StoreResult {
  /** Bars written (new or rewritten). */
  bars: number;
  /** Rows for securities the instrument master does not list (delisted since, debt …). */
  unknown: number;
}

/** The instrument each row is, as `(exchange, symbol)`: one row per instrument. */
function matchInstruments(exchange: Exchange) {
  return exchange === 'NSE'
    ? sql`select distinct on (i.symbol) i.exchange, i.symbol, r.*
          from rows r
          left join symbol_renames sr on sr.exchange = 'NSE' and sr.old_symbol = r.key
          join instruments i on i.exchange = 'NSE' and i.symbol in (r.key, sr.new_symbol)
          order by i.symbol, (i.symbol = r.key) desc`
    : sql`select distinct on (i.symbol) i.exchange, i.symbol, r.*
          from rows r
          join instruments i on i.exchange = 'BSE'
            and (i.scrip_code = r.key or (r.isin is not null and i.isin = r.isin))
          order by i.symbol, (i.scrip_code = r.key) desc`;
}

/** Upserts the file's bars in one statement; answers how many were written and how many rows matched nothing. */
export async function storeBhavcopy(db: Executor, copy: Bhavcopy): Promise<StoreResult> {
  const column = (f: keyof Bhavcopy['rows'][number]) => pgArray(copy.rows.map((r) => r[f]));
  const [row] = await queryRows<{ bars: number }>(
    db,
    sql`with rows as (
          select * from unnest(${column('key')}::text[], ${column('isin')}::text[],
            ${column('open')}::numeric[], ${column('high')}::numeric[], ${column('low')}::numeric[],
            ${column('close')}::numeric[], ${column('volume')}::bigint[])
            as r(key, isin, open, high, low, close, volume)
        ), matched as (${matchInstruments(copy.exchange)}),
        written as (
          insert into daily_bars (exchange, symbol, date, open, high, low, close, volume, source)
          select exchange, symbol, ${copy.date}::date, open, high, low, close, volume, ${copy.file}
          from matched
          on conflict (exchange, symbol, date) do update set
            open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
            volume = excluded.volume, source = excluded.source, updated_at = now()
          returning 1
        )
        select count(*)::int as bars from written`,
  );
  const bars = row?.bars ?? 0;
  return { bars, unknown: copy.rows.length - bars };
}

export interface StoredBar {
  date: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** One instrument's unadjusted bars from `from` to `to` (both included), in date order. */
export function readBars(
  db: Executor,
  q: { exchange: Exchange; symbol: string; from: string; to: string },
): Promise<StoredBar[]> {
  return queryRows<StoredBar>(
    db,
    sql`select to_char(date, 'YYYY-MM-DD') as date, open::text, high::text, low::text, close::text,
          volume::text
        from daily_bars
        where exchange = ${q.exchange} and symbol = ${q.symbol} and date between ${q.from} and ${q.to}
        order by date`,
  );
}

/** One instrument's bars as {@link readBarsOf} answers them: each column as one list, oldest first. */
export interface StoredBarsOf {
  exchange: Exchange;
  symbol: string;
  /** Comma-separated: `2025-06-02,2025-06-03`, and the prices and volumes of those days. */
  dates: string;
  opens: string;
  highs: string;
  lows: string;
  closes: string;
  volumes: string;
}

/**
 * Many instruments' unadjusted bars from `from` to `to` in ONE statement, one row per instrument
 * with each column as one comma-separated list in date order (Price Guard's preview reads every
 * holding's this way, never one query a holding; a row per bar costs more to send and parse than
 * the backtests themselves). An instrument without bars has no row.
 */
export function readBarsOf(
  db: Executor,
  q: { instruments: readonly { exchange: Exchange; symbol: string }[]; from: string; to: string },
): Promise<StoredBarsOf[]> {
  if (q.instruments.length === 0) return Promise.resolve([]);
  const list = (column: SQL) => sql`string_agg(${column}, ',' order by d.date)`;
  return queryRows<StoredBarsOf>(
    db,
    sql`select d.exchange, d.symbol, ${list(sql`to_char(d.date, 'YYYY-MM-DD')`)} as dates,
          ${list(sql`d.open::text`)} as opens, ${list(sql`d.high::text`)} as highs,
          ${list(sql`d.low::text`)} as lows, ${list(sql`d.close::text`)} as closes,
          ${list(sql`d.volume::text`)} as volumes
        from unnest(${pgArray(q.instruments.map((i) => i.exchange))}::text[],
                    ${pgArray(q.instruments.map((i) => i.symbol))}::text[]) as i(exchange, symbol)
        join daily_bars d on d.exchange = i.exchange and d.symbol = i.symbol
        where d.date between ${q.from} and ${q.to}
        group by d.exchange, d.symbol`,
  );
}
