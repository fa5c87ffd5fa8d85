/**
 * The UDiFF CM bhavcopy, NSE's and BSE's since 8 July 2024 (`BhavCopy_NSE_CM_0_0_0_YYYYMMDD_F_0000.csv`,
 * zipped at NSE; `BhavCopy_BSE_CM_…CSV` plain at BSE): one 34-column header for both, the
 * exchange named in `Src`: what the NSE and BSE readers (nse-udiff.ts, bse-udiff.ts) share.
 * docs/history.md#formats.
 */
import { bcDate } from '@app/common/corporate-actions/bc-file';
import { cellReader, checkedRow, singleDate, type BhavcopyRow, type Table } from './table.ts';

const REQUIRED = [
  'TRADDT',
  'SRC',
  'FININSTRMTP',
  'FININSTRMID',
  'ISIN',
  'TCKRSYMB',
  'SCTYSRS',
  'OPNPRIC',
  'HGHPRIC',
  'LWPRIC',
  'CLSPRIC',
  'TTLTRADGVOL',
];

export function matchesSource(source: 'NSE' | 'BSE') {
  return (header: readonly string[], first: readonly string[] | undefined) => {
    if (!REQUIRED.every((c) => header.includes(c))) return false;
    return (first?.[header.indexOf('SRC')] ?? '').trim().toUpperCase() === source;
  };
}

export function readRows(table: Table, keep: (cell: (c: string) => string) => string | null) {
  const cell = cellReader(table);
  const dates: (string | null)[] = [];
  const rows: BhavcopyRow[] = [];
  table.records.forEach((record, i) => {
    const at = (c: string) => cell(record, c);
    const key = keep(at);
    if (key === null) return;
    dates.push(bcDate(at('TRADDT')));
    rows.push(
      checkedRow(table, i + 2, {
        key,
        isin: at('ISIN').toUpperCase() || null,
        open: at('OPNPRIC'),
        high: at('HGHPRIC'),
        low: at('LWPRIC'),
        close: at('CLSPRIC'),
        volume: at('TTLTRADGVOL'),
      }),
    );
  });
  return { date: singleDate(table, dates), rows };
}
