import { formatCompactInr } from '@app/common/format/money';
import { anyPriced, unpricedNote } from '@app/common/portfolio/summary';
import type { PortfolioSummary } from '@app/common/portfolio/types';
import { QUOTA_REACHED_NOTE, quotaPolicy } from '@app/common/rules/tiers';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { gainClass, signedInr, signedPercent } from '../holdings/table/format.ts';
import type { AlertQuota } from './useAlertQuota.ts';

interface SummaryCardsProps {
  holdingsCount: number;
  activeRules: number;
  summary: PortfolioSummary & { dayChangeKnown: boolean };
  quota: AlertQuota;
}

/** Cards shown once holdings exist: Holdings and Active Rules, value and alerts. */
export function SummaryCards({ holdingsCount, activeRules, summary, quota }: SummaryCardsProps) {
  return (
    <ul className="summary-cards" aria-label="Summary">
      <SummaryCard to="/holdings" label="Holdings" value={String(holdingsCount)} note="View holdings" />
      <SummaryCard
        to="/holdings"
        label="Active Rules"
        value={String(activeRules)}
        note={activeRules === 0 ? 'Protect your holdings' : 'Manage rules'}
      />
      <SummaryCard
        to="/holdings"
        label="Current Value"
        value={anyPriced(summary) ? formatCompactInr(summary.total_current_value) : '—'}
        note={
          summary.unpriced_count > 0 ? (
            <span className="text-muted">{unpricedNote(summary)}</span>
          ) : summary.dayChangeKnown ? (
            <span className={gainClass(summary.day_change)}>
              {signedInr(summary.day_change)} ({signedPercent(summary.day_change_percent)}) today
            </span>
          ) : (
            <span className={gainClass(summary.total_pnl)}>
              {signedPercent(summary.total_pnl_percent)} overall
            </span>
          )
        }
      />
      <li className="summary-card">
        <span className="summary-card-label">Email alerts this month</span>
        <span className="summary-card-value">
          {quota.total === null ? quota.used : `${quota.used} of ${quota.total}`}
        </span>
        <span className="summary-card-note" title={quotaPolicy(quota.subscription_tier)}>
          {quota.subscription_tier === 'advanced'
            ? 'Advanced plan: unlimited'
            : quota.total !== null && quota.used >= quota.total
              ? QUOTA_REACHED_NOTE
              : 'Basic plan · stop losses always emailed'}
        </span>
      </li>
    </ul>
  );
}

function SummaryCard({
  to,
  label,
  value,
  note,
}: {
  to: string;
  label: string;
  value: string;
  note: ReactNode;
}) {
  return (
    <li className="summary-card summary-card-link">
      <Link to={to} className="summary-card-anchor">
        <span className="summary-card-label">{label}</span>
        <span className="summary-card-value">{value}</span>
        <span className="summary-card-note">{note}</span>
      </Link>
    </li>
  );
}
