import { BACKTEST_YEARS, type BacktestYears } from '@app/common/api/backtest';
import { backtestSentence } from '@app/common/history/backtest-words';
import { parseInstrumentKey } from '@app/common/market/tick-batch';
import { RULE_KINDS } from '@app/common/rules/index';
import { lazy, Suspense, useState } from 'react';
import '../../../../styles/rule-backtest.css';
import { useBacktest, type BacktestDraft } from './useBacktest.ts';

const BacktestChart = lazy(() => import('./BacktestChart.tsx'));

const CHART_LOADING = <div className="backtest-chart backtest-placeholder">Drawing the chart…</div>;

/**
 * "What would this rule have done" under the level fields of the wizard's trigger step and the
 * one-screen rule dialog: the rule replayed on the holding's daily prices over 1, 3 or 5 years
 * (docs/exit-rules.md, "ATR stops and the backtest"), one line and a small chart.
 */
export function BacktestPanel({ draft }: { draft: BacktestDraft }) {
  const [years, setYears] = useState<BacktestYears>(3);
  const state = useBacktest(draft, years);
  const symbol = parseInstrumentKey(draft.holding)?.symbol ?? 'this stock';
  const stop = RULE_KINDS[draft.trigger_type].direction === 'below';
  return (
    <section className="backtest" aria-label="What this rule would have done">
      <div className="backtest-head">
        <h3 className="backtest-title">What this rule would have done</h3>
        <div className="segmented backtest-years" role="group" aria-label="Backtest over">
          {BACKTEST_YEARS.map((choice) => (
            <button
              key={choice}
              type="button"
              aria-pressed={years === choice}
              onClick={() => setYears(choice)}
            >
              {choice}y
            </button>
          ))}
        </div>
      </div>
      <div aria-live="polite" aria-busy={state.status === 'loading'}>
        {state.status === 'idle' ? (
          <p className="backtest-line text-muted">Type a level to see how this rule would have done.</p>
        ) : state.status === 'loading' ? (
          <p className="backtest-line text-muted">Replaying the rule on {symbol}’s past prices…</p>
        ) : state.status === 'empty' ? (
          <p className="backtest-line backtest-empty text-muted">
            {state.message}. The backtest appears once the exchange’s daily prices for {symbol} are loaded.
          </p>
        ) : state.status === 'error' ? (
          <p className="backtest-line text-loss">{state.message}</p>
        ) : (
          <>
            <p className="backtest-line">{backtestSentence(state.data, { years, stop })}</p>
            <Suspense fallback={CHART_LOADING}>
              <BacktestChart result={state.data} symbol={symbol} />
            </Suspense>
          </>
        )}
      </div>
    </section>
  );
}
