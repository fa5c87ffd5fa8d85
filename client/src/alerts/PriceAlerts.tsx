import type { ApiPriceAlert } from '@app/common/api/price-alerts';
import { formatInr } from '@app/common/format/money';
import type { Exchange } from '@app/common/instruments/types';
import { sanitizeTriggerInput } from '@app/common/rules/index';
import { useId, useState } from 'react';
import { errorMessage } from '../api/client.ts';
import { SymbolSearch } from '../components/SymbolSearch.tsx';
import { priceAlertSentence } from './alertDisplay.ts';
import { alertStore } from './alertStore.ts';

/**
 * Plain price alerts: 'Alert me when INFY rises to ₹1,600', on any listed stock, held or not
 * (POST /api/alerts), and the list of them with Delete.
 */
export function PriceAlerts({ alerts }: { alerts: readonly ApiPriceAlert[] }) {
  const id = useId();
  const [adding, setAdding] = useState(false);
  return (
    <section className="price-alerts" aria-labelledby={`${id}-title`}>
      <div className="alert-panel-head">
        <h3 id={`${id}-title`}>Price alerts</h3>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          aria-expanded={adding}
          onClick={() => setAdding((open) => !open)}
        >
          {adding ? 'Close' : '+ New price alert'}
        </button>
      </div>
      {adding ? <PriceAlertForm onDone={() => setAdding(false)} /> : null}
      {alerts.length === 0 ? (
        adding ? null : (
          <p className="alert-empty">No price alerts. Get told when any stock crosses a price.</p>
        )
      ) : (
        <ul className="price-alert-list">
          {alerts.map((alert) => {
            const sentence = priceAlertSentence(alert);
            return (
              <li key={alert.id} className="price-alert" data-status={alert.status}>
                <span className="price-alert-text">
                  {sentence}
                  <small className="text-muted">
                    {alert.status === 'TRIGGERED' ? (
                      <span className="text-triggered">Triggered</span>
                    ) : alert.current_price !== null ? (
                      `LTP ${formatInr(alert.current_price)}`
                    ) : (
                      'Waiting for a price'
                    )}
                  </small>
                </span>
                <button
                  type="button"
                  className="dismiss-button"
                  aria-label={`Delete price alert: ${sentence}`}
                  title="Delete"
                  onClick={() => void alertStore.deletePriceAlert(alert.id)}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function PriceAlertForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const [symbol, setSymbol] = useState('');
  const [exchange, setExchange] = useState<Exchange>('NSE');
  const [direction, setDirection] = useState<'above' | 'below'>('above');
  const [price, setPrice] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    const value = Number(price);
    if (!symbol.trim()) return setError('Please choose a stock');
    if (!(value > 0)) return setError('Please enter a price greater than 0');
    setBusy(true);
    setError(null);
    try {
      await alertStore.addPriceAlert({
        symbol: symbol.trim().toUpperCase(),
        exchange,
        direction,
        price: value,
      });
      onDone();
    } catch (err) {
      setError(errorMessage(err, 'Failed to set the price alert'));
      setBusy(false);
    }
  };

  return (
    <form
      className="price-alert-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p className="price-alert-lead">Alert me when</p>
      <SymbolSearch
        id={`${id}-symbol`}
        label="Stock"
        hideLabel
        value={symbol}
        placeholder="Stock, e.g. INFY"
        onChange={(text) => setSymbol(text.toUpperCase())}
        onSelect={(match) => {
          setSymbol(match.symbol);
          setExchange(match.exchange);
        }}
      />
      <div className="price-alert-row">
        <label className="visually-hidden" htmlFor={`${id}-direction`}>
          Direction
        </label>
        <select
          id={`${id}-direction`}
          className="select"
          value={direction}
          onChange={(event) => setDirection(event.target.value === 'below' ? 'below' : 'above')}
        >
          <option value="above">rises to</option>
          <option value="below">falls to</option>
        </select>
        <label className="visually-hidden" htmlFor={`${id}-price`}>
          Price in rupees
        </label>
        <span className="price-alert-price">
          <span aria-hidden="true">₹</span>
          <input
            id={`${id}-price`}
            className="input"
            inputMode="decimal"
            autoComplete="off"
            placeholder="1600"
            value={price}
            onChange={(event) => setPrice(sanitizeTriggerInput(event.target.value))}
          />
        </span>
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {busy ? 'Setting...' : 'Set alert'}
        </button>
      </div>
      {error ? (
        <p className="text-loss price-alert-error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="field-hint">
        {symbol ? `${symbol} on ${exchange}. ` : ''}One alert, then it switches off. It is shown here and
        emailed.
      </p>
    </form>
  );
}
