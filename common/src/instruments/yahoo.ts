import type { Exchange } from './types.ts';

/**
 * The Yahoo Finance ticker for an instrument: `RELIANCE.NS` on NSE, `RELIANCE.BO` on BSE (BSE
 * uses the Security Id, not the numeric scrip code).
 */
export function yahooSymbol(symbol: string, exchange: Exchange): string {
  const suffix = exchange === 'NSE' ? 'NS' : 'BO';
  return `${symbol.trim().toUpperCase()}.${suffix}`;
}
