import { STARTER_INSTRUMENTS } from './starter.ts';
import type { Exchange, Instrument } from './types.ts';

/** A prebuilt, immutable in-memory index over an instrument master. */
export interface SearchIndex {
  /** Instruments sorted by symbol, then NSE before BSE. */
  readonly bySymbol: readonly Instrument[];
  /** Parallel to `bySymbol`: the upper-case symbols, for binary search. */
  readonly symbols: readonly string[];
  /** Every significant word of every name, sorted, for binary search. */
  readonly nameWords: readonly string[];
  /** Parallel to `nameWords`: the position in `bySymbol` of the instrument the word belongs to. */
  readonly nameWordOwners: readonly number[];
  readonly byIsin: ReadonlyMap<string, readonly Instrument[]>;
  /** BSE instruments by their numeric scrip code (`500325`). */
  readonly byScripCode: ReadonlyMap<string, Instrument>;
  /** Symbols users look for most (NIFTY 100, popular ETFs); they win ties among prefix matches. */
  readonly prominent: ReadonlySet<string>;
}

export interface SearchOptions {
  /** Maximum number of results; 5 as the symbol search box shows. */
  limit?: number;
  exchange?: Exchange;
}

const DEFAULT_LIMIT = 5;
const ISIN = /^[A-Z]{2}[A-Z0-9]{9}\d$/;
/** BSE's numeric security codes are six digits (`500325`). */
export const BSE_SCRIP_CODE = /^\d{6}$/;
const NOISE_WORDS = new Set(['LIMITED', 'LTD', 'THE', 'OF', 'AND', 'CO', 'COMPANY']);

const STARTER_SYMBOLS: readonly string[] = STARTER_INSTRUMENTS.map((item) => item.symbol);

/**
 * Builds the search index; O(n log n), meant to be done once per master refresh. `prominent`
 * symbols (by default the starter list: NIFTY 100 and popular ETFs) rank before other matches, so
 * 'reli' offers RELIANCE before RELIABLE.
 */
export function buildSearchIndex(
  instruments: readonly Instrument[],
  prominent: Iterable<string> = STARTER_SYMBOLS,
): SearchIndex {
  const bySymbol = [...instruments].sort(compareBySymbol);
  const symbols = bySymbol.map((item) => item.symbol.toUpperCase());
  const entries: { word: string; owner: number }[] = [];
  const byIsin = new Map<string, Instrument[]>();
  const byScripCode = new Map<string, Instrument>();
  bySymbol.forEach((item, owner) => {
    for (const word of new Set(wordsOf(item.name))) entries.push({ word, owner });
    if (item.scripCode) byScripCode.set(item.scripCode, item);
    const isin = item.isin.toUpperCase();
    if (isin === '') return;
    const sameIsin = byIsin.get(isin);
    if (sameIsin) sameIsin.push(item);
    else byIsin.set(isin, [item]);
  });
  entries.sort((a, b) => compareText(a.word, b.word) || a.owner - b.owner);
  return {
    bySymbol,
    symbols,
    nameWords: entries.map((entry) => entry.word),
    nameWordOwners: entries.map((entry) => entry.owner),
    byIsin,
    byScripCode,
    prominent: new Set([...prominent].map((symbol) => symbol.toUpperCase())),
  };
}

/**
 * Finds instruments for what a user typed: an exact ISIN or BSE scrip code match first, then symbols starting with
 * the query (the exact symbol, then prominent ones, then shorter symbols, then alphabetical), then
 * names with a word starting with each query word (names led by the first query word, then
 * prominent ones, then by symbol). Results are de-duplicated and cut to `limit` (default 5).
 */
export function searchInstruments(
  index: SearchIndex,
  query: string,
  options: SearchOptions = {},
): Instrument[] {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const text = query.trim().toUpperCase();
  if (text === '' || limit <= 0) return [];

  const results: Instrument[] = [];
  const seen = new Set<string>();
  const add = (items: Iterable<Instrument>): boolean => {
    for (const item of items) {
      if (options.exchange && item.exchange !== options.exchange) continue;
      const key = `${item.exchange}:${item.symbol.toUpperCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      results.push(item);
      if (results.length >= limit) return true;
    }
    return false;
  };

  if (ISIN.test(text) && add(index.byIsin.get(text) ?? [])) return results;
  const byCode = BSE_SCRIP_CODE.test(text) ? index.byScripCode.get(text) : undefined;
  if (byCode && add([byCode])) return results;
  if (add(symbolPrefixMatches(index, text.replace(/\s+/g, '')))) return results;
  add(nameMatches(index, text));
  return results;
}

function symbolPrefixMatches(index: SearchIndex, prefix: string): Instrument[] {
  const matches: number[] = [];
  for (let i = lowerBound(index.symbols, prefix); i < index.symbols.length; i += 1) {
    if (!index.symbols[i]?.startsWith(prefix)) break;
    matches.push(i);
  }
  const rank = (i: number): number => {
    const symbol = index.symbols[i] ?? '';
    if (symbol === prefix) return 0;
    return index.prominent.has(symbol) ? 1 : 2;
  };
  const lengthOf = (i: number): number => index.symbols[i]?.length ?? 0;
  return matches
    .sort((a, b) => rank(a) - rank(b) || lengthOf(a) - lengthOf(b) || a - b)
    .flatMap((i) => index.bySymbol[i] ?? []);
}

function nameMatches(index: SearchIndex, text: string): Instrument[] {
  const queryWords = wordsOf(text).filter((word) => word.length > 1);
  const [anchor] = [...queryWords].sort((a, b) => b.length - a.length);
  if (anchor === undefined) return [];
  const owners = new Set<number>();
  const { nameWords, nameWordOwners } = index;
  for (let i = lowerBound(nameWords, anchor); i < nameWords.length; i += 1) {
    if (!nameWords[i]?.startsWith(anchor)) break;
    owners.add(nameWordOwners[i] ?? 0);
  }
  const [firstQueryWord = ''] = queryWords;
  const rank = (item: Instrument): number => {
    const leads = wordsOf(item.name)[0]?.startsWith(firstQueryWord) ? 0 : 2;
    return leads + (index.prominent.has(item.symbol.toUpperCase()) ? 0 : 1);
  };
  return [...owners]
    .flatMap((owner) => index.bySymbol[owner] ?? [])
    .filter((item) => matchesAllWords(wordsOf(item.name), queryWords))
    .sort((a, b) => rank(a) - rank(b) || compareBySymbol(a, b));
}

function matchesAllWords(nameWords: readonly string[], queryWords: readonly string[]): boolean {
  return queryWords.every((query) => nameWords.some((word) => word.startsWith(query)));
}

/** Upper-case alphanumeric words of a name, without noise such as LIMITED or THE. */
function wordsOf(name: string): string[] {
  return name
    .toUpperCase()
    .split(/[^A-Z0-9]+/)
    .filter((word) => word !== '' && !NOISE_WORDS.has(word));
}

function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareText(sorted[mid] ?? '', key) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Symbol order; for the same symbol NSE comes before BSE. */
function compareBySymbol(a: Instrument, b: Instrument): number {
  return compareText(a.symbol.toUpperCase(), b.symbol.toUpperCase()) || exchangeRank(a) - exchangeRank(b);
}

function exchangeRank(item: Instrument): number {
  return item.exchange === 'NSE' ? 0 : 1;
}
