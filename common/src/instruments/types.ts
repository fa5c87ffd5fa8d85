/** Stock exchanges the product tracks. */
export const EXCHANGES = ['NSE', 'BSE'] as const;
export type Exchange = (typeof EXCHANGES)[number];

/** Main-board equity, NSE Emerge (SME) share, or exchange-traded fund. */
export type InstrumentKind = 'EQUITY' | 'SME' | 'ETF';

/** One tradable line of an exchange master. */
export interface Instrument {
  exchange: Exchange;
  /** NSE trading symbol, or the BSE Security Id. */
  symbol: string;
  /** Company (or fund) name as the exchange publishes it. */
  name: string;
  isin: string;
  kind: InstrumentKind;
  /** NSE series (`EQ`, `BE`, `BZ`, `SM`, `ST`) or BSE group (`A`, `B`, `X`, ...). */
  series?: string;
  /** BSE numeric scrip code, e.g. `500325` for Reliance Industries. */
  scripCode?: string;
}

/** One line of NSE's symbol-change file. */
export interface SymbolChange {
  oldSymbol: string;
  newSymbol: string;
  companyName: string;
  /** ISO date `YYYY-MM-DD`, or the raw text when the exchange's date cannot be read. */
  changedOn: string;
}

/** Narrows free text to an exchange code (case-insensitive, trimmed). */
export function toExchange(raw: string): Exchange | undefined {
  const code = raw.trim().toUpperCase();
  return code === 'NSE' || code === 'BSE' ? code : undefined;
}
