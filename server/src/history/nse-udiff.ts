/**
 * NSE's UDiFF CM bhavcopy (`BhavCopy_NSE_CM_0_0_0_YYYYMMDD_F_0000.csv`, zipped as published):
 * the rows of its equity series, one per symbol. docs/history.md#formats.
 */
import type { BhavcopyReader, BhavcopyRow } from './table.ts';
import { matchesSource, readRows } from './udiff.ts';

/**
 * NSE's equity series: rolling (EQ), trade-for-trade (BE, BZ) and SME (SM, ST); a symbol in
 * several the same day is read from the first of these.
 */
export const NSE_SERIES = ['EQ', 'BE', 'BZ', 'SM', 'ST'] as const;

export const nseUdiff: BhavcopyReader = {
  title: 'NSE UDiFF bhavcopy',
  exchange: 'NSE',
  matches: matchesSource('NSE'),
  read(table) {
    const rank = (series: string) => NSE_SERIES.indexOf(series as (typeof NSE_SERIES)[number]);
    const read = readRows(table, (at) =>
      at('FININSTRMTP') === 'STK' && rank(at('SCTYSRS').toUpperCase()) >= 0
        ? `${at('TCKRSYMB').toUpperCase()}|${at('SCTYSRS').toUpperCase()}`
        : null,
    );
    return { date: read.date, rows: firstSeries(read.rows, rank) };
  },
};

/** One row per symbol: of a symbol's rows in several series (`key` is `SYMBOL|SERIES`), the best ranked. */
export function firstSeries(rows: BhavcopyRow[], rank: (series: string) => number): BhavcopyRow[] {
  const best = new Map<string, { row: BhavcopyRow; rank: number }>();
  for (const row of rows) {
    const [symbol = '', series = ''] = row.key.split('|');
    const r = rank(series);
    const seen = best.get(symbol);
    if (!seen || r < seen.rank) best.set(symbol, { row: { ...row, key: symbol }, rank: r });
  }
  return [...best.values()].map((b) => b.row);
}
