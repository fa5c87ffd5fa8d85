/**
 * Stand-ins for the brokers' holdings exports of `../shared/fixtures/brokers/` (described in
 * test/fixtures/brokers/README.md): each broker's header row, preamble, quoting, BOM and trailing
 * columns, with made-up holdings. `*_layout.csv` files are the cell grid of an XLSX sheet.
 */
import { csvLine } from './csv.ts';

const lines = (rows: readonly string[]) => [...rows, ''].join('\n');
const grid = (rows: readonly (readonly (string | number)[])[]) => lines(rows.map((row) => csvLine(row)));

/** Zerodha Kite, Holdings → Download: every header quoted, a trailing empty column, a `-BE` suffix. */
export function kiteHoldings(): string {
  const header = [
    'Instrument',
    'Qty.',
    'Avg. cost',
    'LTP',
    'Invested',
    'Cur. val',
    'P&L',
    'Net chg.',
    'Day chg.',
    '',
  ];
  const rows: [string, number, number, number, number][] = [
    ['NIFTYBEES', 600, 266.6, 272.99, -0.21],
    ['SBIN', 15, 974.2, 1021.1, 0.35],
    ['M&M', 3, 2990.35, 3120.4, -1.02],
    ['BAJAJ-AUTO', 2, 8800, 8650.5, 0.4],
    ['IDEA-BE', 100, 7.41, 7.12, -2.5],
  ];
  const round = (n: number) => Math.round(n * 100) / 100;
  return lines([
    csvLine(header, { quoteAll: true }),
    ...rows.map(([symbol, qty, avg, ltp, day]) => {
      const [invested, value] = [round(qty * avg), round(qty * ltp)];
      const pnl = round(value - invested);
      const numbers = [qty, avg, ltp, invested, value, pnl, round((pnl / invested) * 100), day];
      return `"${symbol}",${numbers.join(',')},""`;
    }),
  ]);
}

/** Dhan: a UTF-8 BOM, every text quoted, company names only, Indian-grouped amounts and percents. */
export function dhanHoldings(): string {
  const header = [
    'Name',
    'Quantity',
    'Avg Price',
    'Last Traded',
    'Investment',
    'Current Value',
    'P&L',
    'P&L %',
  ];
  const holdings: [string, number, number, number][] = [
    ['Coal India', 1350, 475.88, 431.15],
    ['HDFC Bank', 130, 831.89, 752.4],
    ['Oil & Natural Gas Corporation', 225, 234.07, 249.8],
  ];
  const rows = holdings.map(([name, qty, avg, ltp]) => {
    const [invested, value] = [qty * avg, qty * ltp];
    const percent = `${(((value - invested) / invested) * 100).toFixed(2)}%`;
    return [
      name,
      qty,
      avg.toFixed(2),
      ltp.toFixed(2),
      rupees(invested),
      rupees(value),
      rupees(value - invested),
      percent,
    ];
  });
  const quoted = (cells: readonly (string | number)[]) =>
    cells.map((c) => (typeof c === 'number' ? String(c) : `"${c}"`)).join(',');
  return `\uFEFF${lines([quoted(header), ...rows.map(quoted)])}`;
}

/** An amount grouped the Indian way, two decimals: `-6,42,438.00`. */
function rupees(amount: number): string {
  const [whole, paise] = Math.abs(amount).toFixed(2).split('.') as [string, string];
  const grouped =
    whole.length > 3 ? `${whole.slice(0, -3).replace(/\B(?=(\d{2})+$)/g, ',')},${whole.slice(-3)}` : whole;
  return `${amount < 0 ? '-' : ''}${grouped}.${paise}`;
}

/** Groww's stocks holdings statement (XLSX grid): a client preamble and summary, then upper-case names. */
export function growwStatementLayout(): string {
  const pad = (row: (string | number)[]) => [...row, ...Array(8 - row.length).fill('')];
  return grid([
    pad(['Name', 'Asha Verma']),
    pad(['Unique Client Code', '1234567890']),
    pad(['Holdings statement for stocks as on 14-11-2026']),
    pad(['Summary']),
    pad(['Invested Value', 26966.4]),
    pad(['Closing Value', 21982.2]),
    pad(['Unrealised P&L', -4984.2]),
    pad([]),
    [
      'Stock Name',
      'ISIN',
      'Quantity',
      'Average buy price',
      'Buy value',
      'Closing price',
      'Closing value',
      'Unrealised P&L',
    ],
    ['HDFC BANK LTD', 'INE040A01034', 4, 1003, 4012, 747.05, 2988.2, -1023.8],
    ['TATA MOTORS PASS VEH LTD', 'INE155A01022', 40, 493.86, 19754.4, 397.8, 15912, -3842.4],
    ['TATAAML-TATAGOLD', 'INF277KA1976', 200, 16, 3200, 15.41, 3082, -118],
  ]);
}

/** Zerodha Console's holdings XLSX, sheet `Equity`: column A empty, ~20 preamble rows, pledged columns. */
export function consoleEquityLayout(): string {
  const row = (...cells: (string | number)[]) => ['', ...cells, ...Array(12 - cells.length).fill('')];
  const blank = (n: number) => Array.from({ length: n }, () => row());
  return grid([
    ...blank(3),
    row("View Zerodha's guide on using tax reports for filing."),
    ...blank(2),
    row('Client ID', 'AB1234'),
    ...blank(3),
    row('Equity Holdings Statement as on 2026-11-14'),
    ...blank(1),
    row('Summary'),
    ...blank(1),
    row('Invested Value', '129845.0000'),
    row('Present Value', '161753.10'),
    row('Unrealized P&L', '31908.1000'),
    row('Unrealized P&L Pct.', '24.5740'),
    ...blank(4),
    row(
      'Symbol',
      'ISIN',
      'Sector',
      'Quantity Available',
      'Quantity Discrepant',
      'Quantity Long Term',
      'Quantity Pledged (Margin)',
      'Quantity Pledged (Loan)',
      'Average Price',
      'Previous Closing Price',
      'Unrealized P&L',
      'Unrealized P&L Pct.',
    ),
    row('INFY', 'INE009A01021', 'IT - Software', 8, 0, 8, 2, 0, 1450.5, 1500, 497, 3.42),
    row('GOLDIAM', 'INE025B01025', 'Gems & Jewellery', 336, 0, 169, 0, 0, 310.25, 402.1, 30861.6, 29.6),
    row('NIFTYBEES', 'INF204KB14I2', 'ETF', 50, 0, 0, 0, 0, 260, 272.99, 649.5, 4.99),
  ]);
}
