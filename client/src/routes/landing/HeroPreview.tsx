import { formatInr, formatPercent, formatSignedInr } from '@app/common/format/index';
import type { Exchange } from '@app/common/instruments/types';

interface PreviewRow {
  symbol: string;
  exchange: Exchange;
  ltp: number;
  changePercent: number;
  rule: string;
  trigger: number;
  status: 'Active' | 'Triggered';
}

const ROWS: PreviewRow[] = [
  {
    symbol: 'TCS',
    exchange: 'NSE',
    ltp: 4112.35,
    changePercent: 1.24,
    rule: 'Trailing stop',
    trigger: 3824.49,
    status: 'Active',
  },
  {
    symbol: 'HDFCBANK',
    exchange: 'NSE',
    ltp: 1642.1,
    changePercent: 0.58,
    rule: 'Profit target',
    trigger: 1800,
    status: 'Active',
  },
  {
    symbol: 'INFY',
    exchange: 'BSE',
    ltp: 1498.6,
    changePercent: -2.31,
    rule: 'Stop loss',
    trigger: 1520,
    status: 'Triggered',
  },
];

/** A static, clearly labelled example of what the signed-in app shows. Not live data. */
export function HeroPreview() {
  return (
    <figure className="hero-preview" aria-label="Illustrative example of a guarded portfolio">
      <div className="hero-preview-head">
        <div>
          <p className="hero-preview-label">Portfolio value</p>
          <p className="hero-preview-value numeric">{formatInr(1248350)}</p>
        </div>
        <span className="badge badge-gain numeric">
          {formatSignedInr(106240.5)} ({formatPercent(9.3, { signed: true })})
        </span>
      </div>
      <ul className="hero-preview-rows">
        {ROWS.map((row) => (
          <li key={row.symbol} className="hero-preview-row">
            <div className="hero-preview-symbol">
              <strong>{row.symbol}</strong>
              <span className="text-muted">{row.exchange}</span>
            </div>
            <div className="hero-preview-price numeric">
              <span>{formatInr(row.ltp)}</span>
              <span className={row.changePercent >= 0 ? 'text-gain' : 'text-loss'}>
                {formatPercent(row.changePercent, { signed: true })}
              </span>
            </div>
            <div className="hero-preview-rule">
              <span className="text-muted">
                {row.rule} {formatInr(row.trigger)}
              </span>
              <span className={row.status === 'Active' ? 'badge badge-primary' : 'badge badge-warning'}>
                {row.status}
              </span>
            </div>
          </li>
        ))}
      </ul>
      <figcaption className="hero-preview-caption">
        Illustrative example, not live prices. INFY alert sent at 14:05 IST.
      </figcaption>
    </figure>
  );
}
