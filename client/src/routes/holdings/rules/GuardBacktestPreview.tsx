import { BACKTEST_YEARS, type BacktestYears } from '@app/common/api/backtest';
import type { PriceGuardBacktest } from '@app/common/api/price-guard';
import { formatPercent } from '@app/common/format/percent';
import {
  atrRuleWords,
  atrSuggestionSentence,
  atrTotals,
  guardPreviewSentence,
} from '@app/common/history/guard-preview';
import { PRICE_GUARD_RULE } from '@app/common/rules/index';
import { useEffect, useState } from 'react';
import { api, errorMessage, isAbortError } from '../../../api/client.ts';
import { LoadingMessage } from '../../../components/Spinner.tsx';

type Load =
  { state: 'loading' } | { state: 'error'; message: string } | { state: 'done'; data: PriceGuardBacktest };

interface GuardBacktestPreviewProps {
  /** The review's ATR stop is chosen: the line tells what it would have done. */
  atrChosen: boolean;
  /** Chooses the ATR stop (the suggestion's button). */
  onUseAtr: () => void;
}

/**
 * Price Guard's preview (docs/exit-rules.md, "Price Guard's preview"): what the chosen rule would
 * have done on the user's holdings over 1, 3 or 5 years, and, while the 7 % trailing stop is
 * chosen, where the ATR stop would have whipsawed less, with a button that chooses it.
 */
export function GuardBacktestPreview({ atrChosen, onUseAtr }: GuardBacktestPreviewProps) {
  const [years, setYears] = useState<BacktestYears>(3);
  const [attempt, setAttempt] = useState(0);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    api
      .post<PriceGuardBacktest>(
        '/price-guard/backtest',
        {
          trigger_type: PRICE_GUARD_RULE.trigger_type,
          value_type: PRICE_GUARD_RULE.value_type,
          trigger_value: PRICE_GUARD_RULE.trigger_value,
          years,
        },
        { signal: abort.signal },
      )
      .then(
        (data) => setLoad({ state: 'done', data }),
        (err: unknown) => {
          if (isAbortError(err)) return;
          setLoad({ state: 'error', message: errorMessage(err, 'The backtest could not be loaded.') });
        },
      );
    return () => abort.abort();
  }, [years, attempt]);

  return (
    <section className="guard-backtest" aria-label="What this rule would have done">
      <div className="guard-backtest-head">
        <h3>What it would have done</h3>
        <div className="guard-backtest-years" role="group" aria-label="Years">
          {BACKTEST_YEARS.map((y) => (
            <button
              key={y}
              type="button"
              className={y === years ? 'btn btn-sm btn-primary' : 'btn btn-sm btn-secondary'}
              aria-pressed={y === years}
              onClick={() => {
                setLoad({ state: 'loading' });
                setYears(y);
              }}
            >
              {y}Y
            </button>
          ))}
        </div>
      </div>
      {load.state === 'loading' ? (
        <LoadingMessage>Replaying the rule on your holdings’ daily prices…</LoadingMessage>
      ) : load.state === 'error' ? (
        <p className="guard-backtest-error" role="alert">
          {load.message}{' '}
          <button
            type="button"
            className="btn btn-sm btn-secondary"
            onClick={() => {
              setLoad({ state: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            Try again
          </button>
        </p>
      ) : (
        <PreviewBody data={load.data} atrChosen={atrChosen} onUseAtr={onUseAtr} />
      )}
    </section>
  );
}

function PreviewBody({
  data,
  atrChosen,
  onUseAtr,
}: { data: PriceGuardBacktest } & GuardBacktestPreviewProps) {
  if (data.totals.holdings === 0) {
    return (
      <>
        <p className="guard-backtest-line" role="status">
          No daily history yet for your holdings, so there is nothing to replay. The preview appears once the
          exchanges’ daily prices are loaded.
        </p>
        <LeftOut data={data} />
      </>
    );
  }
  const suggestion = atrChosen ? '' : atrSuggestionSentence(data);
  const line = guardPreviewSentence(atrChosen ? { years: data.years, totals: atrTotals(data) } : data);
  return (
    <>
      <p className="guard-backtest-line" role="status">
        {line}{' '}
        <span className="text-muted">
          A whipsaw: the alert came, and the price was back above the level within 10 trading days.
        </span>
      </p>
      {suggestion ? (
        <p className="guard-backtest-suggestion">
          <strong>{suggestion}</strong>{' '}
          <span className="text-muted">
            A {atrRuleWords(data.atr_rule)} follows each stock’s own daily swing.
          </span>{' '}
          <button type="button" className="btn btn-sm btn-secondary" onClick={onUseAtr}>
            Use the ATR stop
          </button>
        </p>
      ) : null}
      <details className="guard-backtest-details">
        <summary>Per holding</summary>
        <div className="guard-review-scroll">
          <table className="guard-review">
            <thead>
              <tr>
                <th scope="col">Symbol</th>
                <th scope="col" className="num">
                  Fired
                </th>
                <th scope="col" className="num">
                  Whipsaws
                </th>
                <th scope="col" className="num">
                  Rule / hold
                </th>
                <th scope="col" className="num">
                  ATR whipsaws
                </th>
              </tr>
            </thead>
            <tbody>
              {data.holdings.map((h) => (
                <tr key={`${h.exchange}:${h.symbol}@${h.account_id}`} data-symbol={h.symbol}>
                  <th scope="row">
                    {h.symbol} <span className="guard-review-account-inline text-muted">{h.account}</span>
                    <span className="guard-review-account text-muted"> {h.account}</span>
                  </th>
                  <td className="num">{h.fired}</td>
                  <td className="num">{h.whipsaws}</td>
                  <td className="num">
                    {formatPercent(h.rule_return_percent, { signed: true })} /{' '}
                    {formatPercent(h.hold_return_percent, { signed: true })}
                  </td>
                  <td className={h.atr_whipsaws < h.whipsaws ? 'num guard-backtest-better' : 'num'}>
                    {h.atr_whipsaws}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
      <LeftOut data={data} />
    </>
  );
}

function LeftOut({ data }: { data: PriceGuardBacktest }) {
  if (data.left_out.length === 0) return null;
  const n = data.left_out.length;
  return (
    <p className="guard-backtest-left-out text-muted">
      Left out ({n} {n === 1 ? 'holding' : 'holdings'}):{' '}
      {data.left_out.map((h, i) => (
        <span key={`${h.exchange}:${h.symbol}@${h.account_id}`}>
          {i > 0 ? '; ' : ''}
          <strong>{h.symbol}</strong> ({h.account}): {h.message.charAt(0).toLowerCase() + h.message.slice(1)}
        </span>
      ))}
      .
    </p>
  );
}
