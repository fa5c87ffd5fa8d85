/**
 * The replay provider (docs/live-prices.md, `QUOTE_PROVIDER`): plays a CSV file
 * `time,symbol,exchange,price[,prev_close]` (header row optional, blank lines and `#` comments
 * skipped). Rows sharing a `time` form one batch; batches come out in file order, one per call (the
 * streamer calls once per interval, the first right after start). After the last batch it answers
 * nothing, so nothing is published, unless `loop` starts it over.
 *
 * Replay ignores the watch set on purpose: every row of a batch is published whether or not
 * anyone watches the instrument, so a test or demo gets exactly the file's prices.
 *
 * `asOf` is the row's time when that is an absolute time (ISO 8601, epoch seconds or ms);
 * for a bare label such as `09:15` it is the moment the batch is played.
 */
import type { Exchange } from '@app/common/instruments/types';
import { readFileSync } from 'node:fs';
import { priceChange } from '@app/common/market/quote-math';
import type { Quote } from '@app/common/market/tick-batch';
import type { QuoteProvider } from './types.ts';

/** One priced row of a replay file. */
export interface ReplayRow {
  symbol: string;
  exchange: Exchange;
  price: number;
  prevClose: number | null;
}

/** The rows sharing one `time`. */
export interface ReplayBatch {
  time: string;
  /** Epoch ms when `time` is absolute, otherwise null. */
  asOf: number | null;
  rows: ReplayRow[];
}

/** A replay file that cannot be read or parsed; the message names each bad line. */
export class ReplayFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayFileError';
  }
}

const MAX_LISTED_PROBLEMS = 10;

function absoluteTime(time: string): number | null {
  if (/^\d+$/.test(time)) {
    const n = Number(time);
    if (n >= 1e12) return n;
    if (n >= 1e9) return n * 1000;
    return null;
  }
  if (!/^\d{4}-\d{2}-\d{2}/.test(time)) return null;
  const ms = Date.parse(time);
  return Number.isFinite(ms) ? ms : null;
}

function unquote(field: string): string {
  const trimmed = field.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1).trim()
    : trimmed;
}

const positive = (text: string) => {
  const n = Number(text);
  return text !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
};

/** One data line's fields as a row and its time, or the reason it is not one. */
function parseRow(fields: string[]): { time: string; row: ReplayRow } | string {
  if (fields.length < 4 || fields.length > 5) {
    return `expected time,symbol,exchange,price[,prev_close] but found ${fields.length} fields`;
  }
  const [time = '', symbolRaw = '', exchangeRaw = '', priceRaw = '', prevRaw = ''] = fields;
  const symbol = symbolRaw.toUpperCase();
  const exchange = exchangeRaw.toUpperCase();
  const price = positive(priceRaw);
  const prevClose = prevRaw === '' ? null : positive(prevRaw);
  if (time === '') return 'time is empty';
  if (symbol === '' || symbol.length > 40) return 'symbol must be 1 to 40 characters';
  if (exchange !== 'NSE' && exchange !== 'BSE') return `exchange must be NSE or BSE, not "${exchangeRaw}"`;
  if (price === undefined) return `price must be a positive number, not "${priceRaw}"`;
  if (prevClose === undefined) return `prev_close must be a positive number or empty, not "${prevRaw}"`;
  return { time, row: { symbol, exchange, price, prevClose } };
}

/** Parses a replay CSV into batches in file order; throws ReplayFileError listing bad lines. */
export function parseReplayCsv(text: string, source = 'replay file'): ReplayBatch[] {
  const batches = new Map<string, ReplayBatch>();
  const problems: string[] = [];
  let first = true;
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) return;
    const fields = raw.split(',').map(unquote);
    const isHeader = first && fields[0]?.toLowerCase() === 'time';
    first = false;
    if (isHeader) return;
    const parsed = parseRow(fields);
    if (typeof parsed === 'string') {
      problems.push(`line ${index + 1}: ${parsed}`);
      return;
    }
    let batch = batches.get(parsed.time);
    if (!batch) {
      batch = { time: parsed.time, asOf: absoluteTime(parsed.time), rows: [] };
      batches.set(parsed.time, batch);
    }
    batch.rows.push(parsed.row);
  });
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
    if (problems.length > listed.length) listed.push(`... and ${problems.length - listed.length} more`);
    throw new ReplayFileError(`${source} has bad rows:\n  ${listed.join('\n  ')}`);
  }
  if (batches.size === 0) throw new ReplayFileError(`${source} has no rows`);
  return [...batches.values()];
}

/** Reads and parses a replay file; ReplayFileError when it is missing or malformed. */
export function loadReplayFile(path: string): ReplayBatch[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ReplayFileError(`REPLAY_FILE ${path} cannot be read: ${reason}`);
  }
  return parseReplayCsv(text, `REPLAY_FILE ${path}`);
}

/** Replay provider set-up. */
export interface ReplayProviderOptions {
  batches: readonly ReplayBatch[];
  /** Start over after the last batch (REPLAY_LOOP). */
  loop?: boolean;
  /** Clock for `asOf` of rows without an absolute time (default Date.now). */
  now?: () => number;
}

/** Creates the replay provider: each `getQuotes` call plays the next batch (see module comment). */
export function createReplayProvider(options: ReplayProviderOptions): QuoteProvider {
  const { batches, loop = false } = options;
  const now = options.now ?? Date.now;
  let next = 0;
  return {
    name: 'replay',
    maxSymbolsPerRequest: Number.MAX_SAFE_INTEGER,
    ignoresWatchSet: true,
    async getQuotes() {
      if (next >= batches.length) {
        if (!loop || batches.length === 0) return [];
        next = 0;
      }
      const batch = batches[next++]!;
      const asOf = batch.asOf ?? now();
      return batch.rows.map((row): Quote => ({
        symbol: row.symbol,
        exchange: row.exchange,
        ltp: row.price,
        prevClose: row.prevClose,
        ...priceChange(row.price, row.prevClose),
        asOf,
        delayMinutes: 0,
      }));
    },
  };
}
