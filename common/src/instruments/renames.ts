import type { SymbolChange } from './types.ts';

/**
 * Builds a map from every retired NSE symbol to the symbol the company trades under today,
 * following chains (`TELCO → TATAMOTORS → TMPV` gives `TELCO → TMPV`).
 *
 * A later step is only followed when it is not dated before the step that led to it, so a symbol
 * that was freed and later reused by another company does not hijack older chains. Self-renames
 * are ignored and cycles stop at the last symbol before the loop closes.
 */
export function resolveRenames(renames: readonly SymbolChange[]): Map<string, string> {
  const next = new Map<string, SymbolChange>();
  for (const change of renames) {
    if (change.oldSymbol === change.newSymbol) continue;
    const known = next.get(change.oldSymbol);
    if (!known || change.changedOn >= known.changedOn) next.set(change.oldSymbol, change);
  }

  const current = new Map<string, string>();
  for (const oldSymbol of next.keys()) {
    current.set(oldSymbol, followChain(oldSymbol, next));
  }
  return current;
}

function followChain(start: string, next: ReadonlyMap<string, SymbolChange>): string {
  const visited = new Set<string>([start]);
  let symbol = start;
  let since = '';
  for (;;) {
    const step = next.get(symbol);
    if (!step || step.changedOn < since || visited.has(step.newSymbol)) return symbol;
    visited.add(step.newSymbol);
    symbol = step.newSymbol;
    since = step.changedOn;
  }
}

/** The current symbol for a possibly retired one: `currentSymbol('ZOMATO', map)` is `ETERNAL`. */
export function currentSymbol(symbol: string, renames: ReadonlyMap<string, string>): string {
  const upper = symbol.trim().toUpperCase();
  return renames.get(upper) ?? upper;
}
