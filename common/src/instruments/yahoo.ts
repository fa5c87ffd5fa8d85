import type { Exchange, InstrumentKind } from './types.ts';

/**
 * The Yahoo Finance ticker for an instrument: `RELIANCE.NS` on NSE, `RELIANCE.BO` on BSE (BSE
 * uses the Security Id, not the numeric scrip code). NSE Emerge (SME) stocks are listed by Yahoo
 * with an `-SM` suffix: `SIMCA-SM.NS`.
 */
export function yahooSymbol(symbol: string, exchange: Exchange, kind?: InstrumentKind): string {
  const suffix = exchange === 'NSE' ? 'NS' : 'BO';
  const sme = exchange === 'NSE' && kind === 'SME' ? '-SM' : '';
  return `${symbol.trim().toUpperCase()}${sme}.${suffix}`;
}
