/**
 * A stand-in for NSE's corporate-actions file (`bcDDMMYYYY.csv`, `../shared/data/bc16122025_equity_rows.csv`):
 * its header, one row per series, ISO dates, PURPOSE as NSE spells it. The seven actions of
 * 16 Dec 2025 the tests adjust rules by (a demerger, a buy-back, two splits, a rights issue, a
 * bonus, a second buy-back), the rows the reader ignores (a capital reduction, dividends) and
 * debt rows of series it never reads.
 */
import { csvLine } from './csv.ts';

/** `[series, symbol, security, ex-date, purpose]`; the record date is the ex-date. */
type BcRow = [string[], string, string, string | null, string];

const ROWS: BcRow[] = [
  [['NC'], '1003IIFL29', 'Sec Re NCD 10.03% Sr V', '2025-12-17', 'INTEREST PAYMENT'],
  [['TB'], '182D181225', 'GOI TBILL 182D-18/12/25', null, 'REDEMPTION'],
  [['BE', 'EQ'], 'ARSSINFRA', 'ARSS Infra Proj. Ltd', '2025-12-19', 'CAP RED'],
  [['EQ', 'T0'], 'CANFINHOME', 'Can Fin Homes Ltd', '2025-12-19', 'INTDIV - RS 7 PER SH'],
  [['EQ'], 'DCMSRIND', 'DCM Shriram Ind Ltd', '2025-12-19', 'DEMERGER'],
  [['EQ'], 'ECLERX', 'eClerx Services Limited', '2025-12-17', 'BUY BACK'],
  [['SM', 'ST'], 'GML', 'Galaxy Medicare Limited', '2025-12-17', 'INTDIV - RS 0.35 PER SH'],
  [['BE', 'EQ'], 'IOC', 'Indian Oil Corp. Ltd.', '2025-12-18', 'INTDIV - RS 5 PER SH'],
  [['BE', 'EQ', 'IQ'], 'KMEW', 'Knowledge Marine & En W L', '2025-12-22', 'FVSPLT FRM RS 10 TO RS 5'],
  [['EQ'], 'KRISHIVAL', 'Krishival Foods Limited', '2025-12-17', 'RIGHTS 45:301@PRM RS 290'],
  [['BE', 'EQ', 'T0'], 'LALPATHLAB', 'Dr. Lal Path Labs Ltd.', '2025-12-19', 'BONUS 1:1'],
  [['EQ'], 'NECLIFE', 'Nectar Lifesciences Limit', '2025-12-24', 'BUY BACK'],
  [['BE', 'EQ', 'T0'], 'NUVAMA', 'Nuvama Wealth Manage Ltd', '2025-12-26', 'FV SPLT FRM RS 10 TO RS 2'],
  [['GB'], 'SGBDEC2512', '2.50%GOLDBONDS2025 SR-XII', null, 'REDEMPTION'],
];

export function bcFile(): string {
  const header = 'SERIES,SYMBOL,SECURITY,RECORD_DT,BC_STRT_DT,BC_END_DT,EX_DT,ND_STRT_DT,ND_END_DT,PURPOSE';
  const rows = ROWS.flatMap(([series, symbol, security, exDate, purpose]) =>
    series.map((s) =>
      csvLine([s, symbol, security, exDate ?? '2025-12-16', '', '', exDate ?? '', '', '', purpose]),
    ),
  );
  return [header, ...rows, ''].join('\n');
}
