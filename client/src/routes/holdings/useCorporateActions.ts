/**
 * The corporate actions on the user's holdings and rules (GET /api/corporate-actions), fetched
 * once for every row of the Holdings page and again after a minute: they change once a day.
 */
import type { ApiCorporateAction } from '@app/common/api/corporate-actions';
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';

const FRESH_MS = 60_000;
let cached: { at: number; list: Promise<ApiCorporateAction[]> } | undefined;

function load(): Promise<ApiCorporateAction[]> {
  if (!cached || Date.now() - cached.at > FRESH_MS) {
    const list = api.get<ApiCorporateAction[]>('/corporate-actions').catch(() => {
      cached = undefined;
      return [];
    });
    cached = { at: Date.now(), list };
  }
  return cached.list;
}

/** The actions on one instrument, in ex-date order (empty while loading or when there are none). */
export function useCorporateActions(symbol: string, exchange: string): ApiCorporateAction[] {
  const [all, setAll] = useState<ApiCorporateAction[]>([]);
  useEffect(() => {
    let live = true;
    void load().then((list) => live && setAll(list));
    return () => {
      live = false;
    };
  }, []);
  return all.filter((a) => a.symbol === symbol && a.exchange === exchange);
}
