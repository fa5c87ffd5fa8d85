import type { Exchange, InstrumentKind } from './types.ts';

/** What Yahoo's spelling of an instrument depends on besides its symbol and exchange. */
export interface YahooListing {
  /** NSE Emerge (SME) stocks are `SYMBOL-SM.NS` on Yahoo. */
  kind?: InstrumentKind;
  /** BSE's six-digit scrip code (`500325`): Yahoo's BSE tickers are `500325.BO`. */
  scripCode?: string | null;
}

const SCRIP_CODE = /^\d{6}$/;

/**
 * The Yahoo Finance ticker for an instrument: `RELIANCE.NS` on NSE; on BSE the scrip code,
 * `500325.BO`, which Yahoo lists for every BSE stock (BSE-only ones often under that name
 * alone), or `RELIANCE.BO` (the Security Id) when the code is not known. NSE Emerge (SME)
 * stocks are listed by Yahoo with an `-SM` suffix: `SIMCA-SM.NS`.
 */
export function yahooSymbol(symbol: string, exchange: Exchange, listing: YahooListing = {}): string {
  if (exchange === 'BSE')
    return listing.scripCode && SCRIP_CODE.test(listing.scripCode)
      ? `${listing.scripCode}.BO`
      : `${symbol.trim().toUpperCase()}.BO`;
  const sme = listing.kind === 'SME' ? '-SM' : '';
  return `${symbol.trim().toUpperCase()}${sme}.NS`;
}
