import { formatInr } from '@app/common/format/money';
import { anyPriced, unpricedNote } from '@app/common/portfolio/summary';
import type { AggregatedHolding } from '@app/common/portfolio/types';
import { useMemo, type ReactNode } from 'react';
import { EyeIcon } from '../../components/icons.tsx';
import { useQuotesVersion } from '../../live/hooks.ts';
import { livePortfolioSummary } from '../../live/liveHoldings.ts';
import { quoteStore } from '../../live/quoteStore.ts';
import { gainClass, signedInr, signedPercent } from './table/format.ts';
import { LiveNumber } from './table/LiveNumber.tsx';
import { HIDDEN_VALUE } from './valuesVisibility.ts';

/**
 * The Portfolio Summary (docs/holdings.md#holdings-and-dashboard-screens): Total Investment,
 * Current Value, P&L, Holdings Count and today's change, at live prices. Values are hidden (****)
 * until the eye toggle shows them; the page owns that choice, so the rows' amounts hide with it
 * (valuesVisibility.ts).
 */
export function PortfolioSummary({
  rows,
  visible,
  onToggleVisible,
}: {
  rows: readonly AggregatedHolding[];
  visible: boolean;
  onToggleVisible: () => void;
}) {
  const version = useQuotesVersion();
  const summary = useMemo(
    () => livePortfolioSummary(rows, (key) => quoteStore.get(key)),
    // `version` changes with every quote batch: recompute then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rows, version],
  );
  const show = (text: string) => (visible ? text : HIDDEN_VALUE);
  const priced = anyPriced(summary);
  const note = unpricedNote(summary);

  return (
    <section className="card portfolio-summary" aria-labelledby="portfolio-summary-title">
      <header className="portfolio-summary-head">
        <h2 id="portfolio-summary-title">Portfolio Summary</h2>
        <button
          type="button"
          className="icon-button"
          aria-pressed={visible}
          aria-label={visible ? 'Hide values' : 'Show values'}
          title={visible ? 'Hide values' : 'Show values'}
          onClick={onToggleVisible}
        >
          <EyeIcon open={visible} />
        </button>
      </header>
      <dl className="summary-grid">
        <Stat label="Total Investment">{show(formatInr(summary.total_investment))}</Stat>
        <Stat label="Current Value">
          {priced ? (
            <LiveNumber value={visible ? summary.total_current_value : null}>
              {show(formatInr(summary.total_current_value))}
            </LiveNumber>
          ) : (
            '—'
          )}
        </Stat>
        <Stat label="P&L" className={visible && priced ? gainClass(summary.total_pnl) : undefined}>
          {priced ? (
            <LiveNumber value={visible ? summary.total_pnl : null} className="stacked">
              <span>{show(signedInr(summary.total_pnl))}</span>
              <small>{show(signedPercent(summary.total_pnl_percent))}</small>
            </LiveNumber>
          ) : (
            '—'
          )}
        </Stat>
        <Stat
          label="Day change"
          className={visible && summary.dayChangeKnown ? gainClass(summary.day_change) : undefined}
        >
          {summary.dayChangeKnown ? (
            <LiveNumber value={visible ? summary.day_change : null} className="stacked">
              <span>{show(signedInr(summary.day_change))}</span>
              <small>{show(signedPercent(summary.day_change_percent))}</small>
            </LiveNumber>
          ) : (
            '—'
          )}
        </Stat>
        <Stat label="Holdings Count">{String(summary.holdings_count)}</Stat>
      </dl>
      {note ? (
        <p className="summary-note text-muted" data-testid="unpriced-note">
          {note}
        </p>
      ) : null}
    </section>
  );
}

function Stat({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className="summary-stat">
      <dt>{label}</dt>
      <dd className={className} data-stat={label}>
        {children}
      </dd>
    </div>
  );
}
