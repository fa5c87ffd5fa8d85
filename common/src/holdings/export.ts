/**
 * Holdings as a spreadsheet-safe CSV table. Text cells that a spreadsheet would run as a
 * formula (starting with =, +, -, @, tab or carriage return) are prefixed with a quote.
 */
import type { PricedPosition } from '../portfolio/types.ts';

const FORMULA_START = /^[=+\-@\t\r]/;

/** Neutralises a text cell against formula injection (CSV injection). */
export function neutralizeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A holding as exported: one account's position, without its purchase value. */
export interface ExportableHolding extends Omit<PricedPosition, 'purchase_value'> {
  symbol: string;
  exchange: string;
  company_name: string;
  broker_name: string;
  account_label: string;
}

export const EXPORT_HEADERS = [
  'Symbol',
  'Exchange',
  'Company',
  'Account',
  'Quantity',
  'Buy Price',
  'LTP',
  'Current Value',
  'P&L',
  'Gain %',
] as const;

/** One row per holding-account; numbers stay numbers, text is neutralised. */
export function holdingsExportRows(holdings: readonly ExportableHolding[]): (string | number)[][] {
  return holdings.map((h) => [
    neutralizeCell(h.symbol),
    h.exchange,
    neutralizeCell(h.company_name),
    neutralizeCell([h.broker_name, h.account_label].filter(Boolean).join(' · ')),
    h.quantity,
    h.average_price,
    h.current_price ?? '',
    h.market_value ?? '',
    h.pnl ?? '',
    h.pnl_percent ?? '',
  ]);
}
