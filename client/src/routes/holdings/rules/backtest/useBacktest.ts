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

const NO_HISTORY = 'No price history for this stock';
const FAILED = 'The backtest could not be run just now. Please try again.';

/** The rule as the dialogs hold it: the level as typed. */
export interface BacktestDraft {
  /** `NSE:RELIANCE`. */
  holding: string;
  trigger_type: TriggerType;
  value_type: ValueType;
  trigger_value: string;
  rearm?: RearmMode;
  rearm_percent?: string;
  /** An ATR stop's period as typed (the server's default, 22, when absent). */
  atr_period?: string;
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
  const atrPeriod = Number(draft.atr_period);
  return {
    symbol: instrument.symbol,
    exchange: instrument.exchange,
    years,
    trigger_type: draft.trigger_type,
    value_type: draft.value_type,
    trigger_value: value,
    rearm: draft.rearm ?? 'never',
    ...(draft.value_type === 'ATR' && draft.atr_period && Number.isInteger(atrPeriod)
      ? { atr_period: atrPeriod }
      : {}),
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
          const status = err instanceof ApiError ? err.status : 0;
          // 422: too little history (the server says how much more); 404: an instrument we do not list.
          if (status === 422) setState({ key, state: { status: 'empty', message: errorMessage(err, '') } });
          else if (status === 404) setState({ key, state: { status: 'empty', message: NO_HISTORY } });
          else setState({ key, state: { status: 'error', message: errorMessage(err, FAILED) } });
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
