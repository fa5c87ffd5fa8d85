import type { Exchange } from '@app/common/instruments/types';
import { useEffect, useState } from 'react';
import { api, isAbortError } from '../api/client.ts';

/** One match of `GET /api/symbols/search` (docs/holdings.md, Symbol routes). */
export interface SymbolMatch {
  symbol: string;
  company_name: string;
  exchange: Exchange;
}

/** Debounce 300 ms, at least 2 characters, 5 results (docs/holdings.md#holdings-and-dashboard-screens). */
export const SYMBOL_SEARCH = { debounceMs: 300, minChars: 2, limit: 5 } as const;

export type SymbolSearchStatus = 'idle' | 'searching' | 'done';

interface Outcome {
  key: string;
  matches: SymbolMatch[];
  /** The search call failed: show nothing rather than 'No symbols found'. */
  failed?: boolean;
}

/**
 * Searches the symbol master as the user types: waits 300 ms after the last keystroke, needs
 * 2 characters, asks for 5 results and cancels a superseded request. A failed search gives an
 * empty list silently (docs/holdings.md#holdings-and-dashboard-screens).
 */
export function useSymbolSearch(
  query: string,
  enabled: boolean,
  exchange?: Exchange,
): { status: SymbolSearchStatus; matches: SymbolMatch[]; query: string } {
  const trimmed = query.trim();
  const active = enabled && trimmed.length >= SYMBOL_SEARCH.minChars;
  const key = `${exchange ?? ''}|${trimmed}`;
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      api
        .get<SymbolMatch[]>('/symbols/search', {
          query: { query: trimmed, limit: SYMBOL_SEARCH.limit, exchange },
          signal: controller.signal,
        })
        .then(
          (data) =>
            setOutcome({ key, matches: Array.isArray(data) ? data.slice(0, SYMBOL_SEARCH.limit) : [] }),
          (err: unknown) => {
            if (isAbortError(err)) return;
            console.debug('Symbol search failed', err);
            setOutcome({ key, matches: [], failed: true });
          },
        );
    }, SYMBOL_SEARCH.debounceMs);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [active, key, trimmed, exchange]);

  if (!active || (outcome?.key === key && outcome.failed))
    return { status: 'idle', matches: [], query: trimmed };
  if (outcome?.key !== key) return { status: 'searching', matches: [], query: trimmed };
  return { status: 'done', matches: outcome.matches, query: trimmed };
}
