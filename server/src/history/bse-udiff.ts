/**
 * BSE's UDiFF CM bhavcopy (`BhavCopy_BSE_CM_0_0_0_YYYYMMDD_F_0000.CSV`, plain CSV):
 * `FinInstrmId` is the scrip code, `SctySrs` the BSE group. docs/history.md#formats.
 */
import type { BhavcopyReader } from './table.ts';
import { matchesSource, readRows } from './udiff.ts';

/** BSE's rows are equity shares (`STK`); `SctySrs` is the BSE group (A, B, T, X …), all kept. */
export const bseUdiff: BhavcopyReader = {
  title: 'BSE UDiFF bhavcopy',
  exchange: 'BSE',
  matches: matchesSource('BSE'),
  read: (table) => readRows(table, (at) => (at('FININSTRMTP') === 'STK' ? at('FININSTRMID') : null)),
};
