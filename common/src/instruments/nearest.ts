/**
 * The listed symbols nearest to one the master does not list: a typo (RELIANSE → RELIANCE, TCSS →
 * TCS) is a letter or two away, so the upload preview asks "did you mean RELIANCE?".
 */
import type { SearchIndex } from './search.ts';
import type { Exchange, Instrument } from './types.ts';

export interface NearestOptions {
  exchange?: Exchange;
  /** At most this many, nearest first; 3 by default. */
  limit?: number;
}

/** How many edits a symbol of this length may be from a suggestion: one for short symbols, else two. */
function allowedEdits(length: number): number {
  return length <= 4 ? 1 : 2;
}

/**
 * Edit distance (insertions, deletions, substitutions and swaps of neighbours), or `max + 1` as
 * soon as it must exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? max + 1;
}

/**
 * The listed instruments whose symbol is within a typo of `symbol`, nearest first; at the same
 * distance the index's prominent symbols (NIFTY 100, popular ETFs) first, then by symbol. Without
 * an exchange, a symbol listed on NSE and BSE comes once, on NSE.
 */
export function nearestSymbols(
  index: SearchIndex,
  symbol: string,
  options: NearestOptions = {},
): Instrument[] {
  const wanted = symbol.trim().toUpperCase();
  const max = allowedEdits(wanted.length);
  const found: { item: Instrument; distance: number }[] = [];
  const seen = new Set<string>();
  index.bySymbol.forEach((item, i) => {
    if (options.exchange && item.exchange !== options.exchange) return;
    const candidate = index.symbols[i] ?? '';
    // Without an exchange, a symbol listed on both is offered once, on NSE (listed first).
    if (candidate === wanted || seen.has(candidate)) return;
    const distance = editDistance(wanted, candidate, max);
    if (distance > max) return;
    seen.add(candidate);
    found.push({ item, distance });
  });
  const rank = (item: Instrument) => (index.prominent.has(item.symbol.toUpperCase()) ? 0 : 1);
  return found
    .sort((a, b) => a.distance - b.distance || rank(a.item) - rank(b.item))
    .slice(0, options.limit ?? 3)
    .map((f) => f.item);
}
