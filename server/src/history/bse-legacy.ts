/**
 * BSE's equity bhavcopy before UDiFF (up to 5 July 2024): `EQDDMMYY.CSV`, header
 * `SC_CODE,SC_NAME,SC_GROUP,SC_TYPE,OPEN,HIGH,LOW,CLOSE,LAST,PREVCLOSE,NO_TRADES,NO_OF_SHRS,NET_TURNOV,TDCLOINDI`.
 * Keyed by scrip code, no ISIN, and no date in the rows: the day is the file name's.
 * Equity shares are `SC_TYPE` Q (debt, bonds and preference shares are D, B, P).
 */
import { bcDate } from '@app/common/corporate-actions/bc-file';
import { dateOfFileName } from './files.ts';
import { BhavcopyError, cellReader, checkedRow, type BhavcopyReader, type BhavcopyRow } from './table.ts';

const REQUIRED = ['SC_CODE', 'SC_TYPE', 'OPEN', 'HIGH', 'LOW', 'CLOSE', 'NO_OF_SHRS'];

export const bseLegacy: BhavcopyReader = {
  title: 'BSE bhavcopy (EQDDMMYY.CSV)',
  exchange: 'BSE',
  matches: (header) => REQUIRED.every((c) => header.includes(c)),
  read(table) {
    const date = bcDate(dateOfFileName(table.file) ?? '');
    if (!date)
      throw new BhavcopyError(table.file, 'its name carries no date (BSE names the file EQDDMMYY.CSV)');
    const cell = cellReader(table);
    const rows: BhavcopyRow[] = [];
    table.records.forEach((record, i) => {
      const at = (c: string) => cell(record, c);
      if (at('SC_TYPE').toUpperCase() !== 'Q') return;
      rows.push(
        checkedRow(table, i + 2, {
          key: at('SC_CODE'),
          isin: null,
          open: at('OPEN'),
          high: at('HIGH'),
          low: at('LOW'),
          close: at('CLOSE'),
          volume: at('NO_OF_SHRS'),
        }),
      );
    });
    return { date, rows };
  },
};
