/**
 * NSE's CM bhavcopy before UDiFF (up to 5 July 2024): `cmDDMONYYYYbhav.csv`, header
 * `SYMBOL,SERIES,OPEN,HIGH,LOW,CLOSE,LAST,PREVCLOSE,TOTTRDQTY,TOTTRDVAL,TIMESTAMP,TOTALTRADES,ISIN,`
 * (a trailing comma on every line), the day as `01-APR-2019`. docs/history.md#formats.
 */
import { bcDate } from '@app/common/corporate-actions/bc-file';
import { cellReader, checkedRow, singleDate, type BhavcopyReader, type BhavcopyRow } from './table.ts';
import { firstSeries, NSE_SERIES } from './nse-udiff.ts';

const REQUIRED = ['SYMBOL', 'SERIES', 'OPEN', 'HIGH', 'LOW', 'CLOSE', 'TOTTRDQTY', 'TIMESTAMP'];

export const nseLegacy: BhavcopyReader = {
  title: 'NSE bhavcopy (cmDDMONYYYYbhav.csv)',
  exchange: 'NSE',
  matches: (header) => REQUIRED.every((c) => header.includes(c)),
  read(table) {
    const cell = cellReader(table);
    const rank = (series: string) => NSE_SERIES.indexOf(series as (typeof NSE_SERIES)[number]);
    const dates: (string | null)[] = [];
    const rows: BhavcopyRow[] = [];
    table.records.forEach((record, i) => {
      const at = (c: string) => cell(record, c);
      const series = at('SERIES').toUpperCase();
      if (rank(series) < 0) return;
      dates.push(bcDate(at('TIMESTAMP')));
      rows.push(
        checkedRow(table, i + 2, {
          key: `${at('SYMBOL').toUpperCase()}|${series}`,
          isin: at('ISIN').toUpperCase() || null,
          open: at('OPEN'),
          high: at('HIGH'),
          low: at('LOW'),
          close: at('CLOSE'),
          volume: at('TOTTRDQTY'),
        }),
      );
    });
    return { date: singleDate(table, dates), rows: firstSeries(rows, rank) };
  },
};
