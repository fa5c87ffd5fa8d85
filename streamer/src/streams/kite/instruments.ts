/**
 * Kite's instrument tokens (docs/live-prices.md): the ticker speaks only in tokens, which
 * Kite's instruments CSV (`GET /instruments`, generated each morning; tokens can change from one
 * day to the next) maps to exchange and trading symbol. Only NSE and BSE equities are kept. Our
 * NSE symbols are Kite's trading symbols; a BSE instrument may be known to us by its symbol or its
 * scrip code, which is Kite's `exchange_token` for BSE.
 */
import { gunzipSync } from 'node:zlib';
import type { Exchange } from '@app/common/instruments/types';
import type { WatchedInstrument } from '../../providers/types.ts';

/** (exchange, symbol) ↔ instrument token, for the day it was loaded. */
export interface KiteInstrumentMap {
  /** The token of an instrument we watch, or undefined when Kite does not list it. */
  tokenOf(instrument: Pick<WatchedInstrument, 'exchange' | 'symbol' | 'scripCode'>): number | undefined;
  /** How many NSE and BSE equities it holds. */
  readonly size: number;
}

/** Reading the instruments list failed; `status` is the HTTP status when Kite answered. */
export class KiteInstrumentsError extends Error {
  readonly status?: number;
  constructor(message: string, status?: number, cause?: unknown) {
    super(message, { cause });
    this.name = 'KiteInstrumentsError';
    this.status = status;
  }
}

const key = (exchange: Exchange, symbol: string) => `${exchange}:${symbol.toUpperCase()}`;

/** Builds the map from the CSV's text (header first; columns found by name). */
export function parseKiteInstruments(csv: string): KiteInstrumentMap {
  const lines = csv.split(/\r?\n/);
  const header = (lines[0] ?? '').replace(/^\uFEFF/, '').split(',');
  const column = (name: string) => {
    const at = header.indexOf(name);
    if (at < 0) throw new KiteInstrumentsError(`the instruments CSV has no ${name} column`);
    return at;
  };
  const at = {
    token: column('instrument_token'),
    exchangeToken: column('exchange_token'),
    symbol: column('tradingsymbol'),
    type: column('instrument_type'),
    exchange: column('exchange'),
  };
  const tokens = new Map<string, number>();
  const bseCodes = new Map<string, number>();
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    // Names may be quoted with commas inside; the columns we read are never quoted.
    const cells = splitCsvLine(line);
    const exchange = cells[at.exchange];
    if ((exchange !== 'NSE' && exchange !== 'BSE') || cells[at.type] !== 'EQ') continue;
    const token = Number(cells[at.token]);
    const symbol = cells[at.symbol];
    if (!Number.isSafeInteger(token) || !symbol) continue;
    tokens.set(key(exchange, symbol), token);
    if (exchange === 'BSE' && cells[at.exchangeToken]) bseCodes.set(cells[at.exchangeToken]!, token);
  }
  return {
    size: tokens.size,
    tokenOf({ exchange, symbol, scripCode }) {
      const direct = tokens.get(key(exchange, symbol));
      if (direct !== undefined) return direct;
      if (exchange === 'NSE') return tokens.get(key('NSE', `${symbol}-BE`));
      return bseCodes.get(symbol) ?? (scripCode ? bseCodes.get(scripCode) : undefined);
    },
  };
}

function splitCsvLine(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

export interface FetchKiteInstrumentsOptions {
  apiUrl: string;
  apiKey: string;
  accessToken: string;
  signal?: AbortSignal;
}

/**
 * Downloads and parses `GET ${apiUrl}/instruments` (gzipped or plain). Throws
 * `KiteInstrumentsError` with the status when Kite refuses (403: the token is refused).
 */
export async function fetchKiteInstruments(options: FetchKiteInstrumentsOptions): Promise<KiteInstrumentMap> {
  let response: Response;
  try {
    response = await fetch(`${options.apiUrl.replace(/\/$/, '')}/instruments`, {
      headers: { 'X-Kite-Version': '3', Authorization: `token ${options.apiKey}:${options.accessToken}` },
      signal: options.signal ?? AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new KiteInstrumentsError('the instruments list could not be fetched', undefined, error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new KiteInstrumentsError(`the instruments list answered ${response.status}`, response.status);
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  // Kite serves a gzip file; fetch undoes only a gzip Content-Encoding.
  const text =
    bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
  return parseKiteInstruments(text);
}
