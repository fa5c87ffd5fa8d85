/**
 * Angel One's instrument list (`OpenAPIScripMaster.json`: a JSON array of string-valued rows
 * `{token, symbol: "SBIN-EQ", name, exch_seg: "NSE" | "BSE", instrumenttype, …}`) reduced to the
 * feed's token per instrument key: NSE equities are the `-EQ` rows (the series suffix dropped),
 * BSE rows keep their symbol. Derivatives and indices are left out.
 */
import { instrumentKey } from '@app/common/market/tick-batch';

interface ScripRow {
  token?: unknown;
  symbol?: unknown;
  exch_seg?: unknown;
  instrumenttype?: unknown;
}

/** Instrument key (`NSE:SBIN`) → Angel's token (`3045`), from the scrip master's JSON text. */
export function angelTokensFromScripMaster(json: string): Map<string, string> {
  const rows = JSON.parse(json) as unknown;
  const tokens = new Map<string, string>();
  if (!Array.isArray(rows)) return tokens;
  for (const row of rows as ScripRow[]) {
    if (typeof row.token !== 'string' || typeof row.symbol !== 'string') continue;
    if (row.instrumenttype !== '' && row.instrumenttype !== undefined) continue;
    if (row.exch_seg === 'NSE' && row.symbol.endsWith('-EQ'))
      tokens.set(instrumentKey('NSE', row.symbol.slice(0, -3)), row.token);
    else if (row.exch_seg === 'BSE') tokens.set(instrumentKey('BSE', row.symbol), row.token);
  }
  return tokens;
}
