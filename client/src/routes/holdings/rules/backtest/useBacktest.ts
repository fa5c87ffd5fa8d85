/**
 * The backtest of the rule being edited (POST /api/position-rules/backtest, docs/exit-rules.md
 * "ATR stops and the backtest"), asked again a moment after the user stops typing.
 */
import type { ApiBacktest, BacktestYears } from '@app/common/api/backtest';
import { parseInstrumentKey } from '@app/common/market/tick-batch';
import type { RearmMode, TriggerType, ValueType } from '@app/common/rules/index';
import { useEffect, useState } from 'react';
import { api, ApiError, errorMessage, isAbortError } from '../../../../api/client.ts';

/** How long the level must stay unchanged before the backtest is asked for. */
export const BACKTEST_DEBOUNCE_MS = 400;

/** The rule as the dialogs hold it: the level as typed. */
export interface BacktestDraft {
  /** `NSE:RELIANCE`. */
  holding: string;
  trigger_type: TriggerType;
  value_type: ValueType;
  trigger_value: string;
  rearm?: RearmMode;
  rearm_percent?: string;
}

export type BacktestState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; data: ApiBacktest }
  /** The store has no or too little history: the server's sentence ("Needs 13 more days of history"). */
  | { status: 'empty'; message: string }
  | { status: 'error'; message: string };

/** The request body, or null while the level is not a number above 0. */
function requestOf(draft: BacktestDraft, years: BacktestYears): Record<string, unknown> | null {
  const instrument = parseInstrumentKey(draft.holding);
  const value = Number(draft.trigger_value);
  if (!instrument || draft.trigger_value.trim() === '' || !Number.isFinite(value) || value <= 0) return null;
  const rearmPercent = Number(draft.rearm_percent);
  return {
    symbol: instrument.symbol,
    exchange: instrument.exchange,
    years,
    trigger_type: draft.trigger_type,
    value_type: draft.value_type,
    trigger_value: value,
    rearm: draft.rearm ?? 'never',
    ...(draft.rearm === 'after_recovery' && Number.isFinite(rearmPercent)
      ? { rearm_percent: rearmPercent }
      : {}),
  };
}

/** The backtest of `draft` over `years`, refreshed (debounced) as it changes. */
export function useBacktest(draft: BacktestDraft, years: BacktestYears): BacktestState {
  const body = requestOf(draft, years);
  const key = body ? JSON.stringify(body) : null;
  const [state, setState] = useState<{ key: string | null; state: BacktestState }>({
    key: null,
    state: { status: 'idle' },
  });

  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.post<ApiBacktest>('/position-rules/backtest', JSON.parse(key), { signal: controller.signal }).then(
        (data) => setState({ key, state: { status: 'ready', data } }),
        (err: unknown) => {
          if (isAbortError(err)) return;
          const message = errorMessage(err, 'The backtest could not be run just now. Please try again.');
          const empty = err instanceof ApiError && err.status === 422;
          setState({ key, state: { status: empty ? 'empty' : 'error', message } });
        },
      );
    }, BACKTEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key]);

  if (key === null) return { status: 'idle' };
  return state.key === key ? state.state : { status: 'loading' };
}
