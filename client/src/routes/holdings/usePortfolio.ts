import type { ApiPositionRule } from '@app/common/api/rules';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, isAbortError } from '../../api/client.ts';
import { fetchHoldings } from '../../live/holdingsSnapshot.ts';
import { firedRule } from '@app/common/rules/fired';
import { useLiveConnection, useLiveEvent, useLiveEvents } from '../../live/hooks.ts';
import { holdingsLoadError, type ApiHolding } from './holdingsView.ts';

/** A position rule as `GET /api/position-rules` lists it (it also covers holdings: RuleCoverage). */
export type RuleSummary = ApiPositionRule;

export interface PortfolioState {
  /** Null until the first snapshot arrived. */
  holdings: ApiHolding[] | null;
  rules: RuleSummary[];
  /** The load error (docs/holdings.md#holdings-and-dashboard-screens), shown in the dismissible red box. */
  error: string | null;
}

/**
 * The user's holdings (`GET /api/holdings`) and rules (`GET /api/position-rules`; a failure
 * counts as no rules). Re-fetched after every live (re)connect and on `holdings:changed` /
 * `rules:changed`, so a change made in another tab shows here too; a rule that fires (`alert`)
 * is patched in place, with no request. The snapshot's quotes seed the live store
 * (live/holdingsSnapshot.ts).
 */
export function usePortfolio() {
  useLiveConnection();
  const [state, setState] = useState<PortfolioState>({ holdings: null, rules: [], error: null });
  const latest = useRef(0);

  const reload = useCallback(async (): Promise<void> => {
    const run = ++latest.current;
    try {
      const [holdings, rules] = await Promise.all([fetchHoldings(), fetchRules()]);
      if (run !== latest.current) return;
      setState({ holdings, rules, error: null });
    } catch (err) {
      if (run !== latest.current || isAbortError(err)) return;
      console.warn('Could not load holdings', err);
      setState((prev) => ({ ...prev, error: holdingsLoadError(err) }));
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);
  useLiveEvents(['connect', 'holdings:changed', 'rules:changed'], () => void reload());
  useLiveEvent('alert', (execution) => {
    if (!execution.rule_id) return;
    setState((prev) => ({ ...prev, rules: prev.rules.map((rule) => firedRule(rule, execution)) }));
  });

  const dismissError = useCallback(() => setState((prev) => ({ ...prev, error: null })), []);
  return { ...state, reload, dismissError };
}

/** Rules, or none when the call fails ("progress fetches fall back to empty data"). */
export async function fetchRules(): Promise<RuleSummary[]> {
  try {
    const data = await api.get<RuleSummary[]>('/position-rules');
    return Array.isArray(data) ? data : [];
  } catch (err) {
    console.warn('Rules unavailable; counting none', err);
    return [];
  }
}
