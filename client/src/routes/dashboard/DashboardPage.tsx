import { aggregateHoldings } from '@app/common/portfolio/aggregate';
import { holdingsCoverage } from '@app/common/portfolio/coverage';
import { useCallback, useMemo } from 'react';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { LoadingMessage } from '../../components/Spinner.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import { useQuotesVersion } from '../../live/hooks.ts';
import { applyQuotes, livePortfolioSummary } from '../../live/liveHoldings.ts';
import { quoteStore } from '../../live/quoteStore.ts';
import { useSession } from '../../session/context.ts';
import '../../styles/dashboard.css';
import { accountName } from '../holdings/holdingsView.ts';
import { usePortfolio } from '../holdings/usePortfolio.ts';
import { AllocationCard } from './AllocationCard.tsx';
import { CoverageLine } from './CoverageLine.tsx';
import {
  activeRulesCount,
  allocation,
  rulesStepComplete,
  topMovers,
  type AllocationView,
} from './dashboardMath.ts';
import { GettingStarted } from './GettingStarted.tsx';
import { SummaryCards } from './SummaryCards.tsx';
import { TopMovers } from './TopMovers.tsx';
import { useAlertQuota } from './useAlertQuota.ts';

const quoteOf = (key: string) => quoteStore.get(key);

/**
 * Dashboard (docs/holdings.md#holdings-and-dashboard-screens): the Getting Started checklist, then
 * how many holdings rules protect, the summary cards, allocation and movers.
 */
export default function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user } = useSession();
  const portfolio = usePortfolio();
  const quota = useAlertQuota();
  const version = useQuotesVersion();
  const firstName = user?.name.split(' ')[0];

  // A failed fetch counts as no data: the checklist still shows.
  const holdings = useMemo(() => portfolio.holdings ?? [], [portfolio.holdings]);
  const rows = useMemo(() => aggregateHoldings(holdings, portfolio.rules), [holdings, portfolio.rules]);
  const names = useMemo(
    () => new Map(holdings.map((h) => [h.broker_account_id, accountName(h)])),
    [holdings],
  );
  const live = useMemo(
    () => ({
      rows: applyQuotes(rows, quoteOf),
      summary: livePortfolioSummary(rows, quoteOf),
      movers: topMovers(rows, quoteOf),
    }),
    // `version` changes with every quote batch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rows, version],
  );
  const slicesFor = useCallback(
    (view: AllocationView) => allocation(live.rows, view, (id) => names.get(id) ?? 'Unknown'),
    [live.rows, names],
  );

  const loading = portfolio.holdings === null && !portfolio.error;
  const hasHoldings = holdings.length > 0;
  const rulesDone = rulesStepComplete(holdings, portfolio.rules);
  const coverage = useMemo(() => holdingsCoverage(holdings, portfolio.rules), [holdings, portfolio.rules]);
  const { reload } = portfolio;
  return (
    <div className="container page dashboard-page">
      <header className="page-header">
        <h1>Dashboard</h1>
        <p>{firstName ? `Welcome, ${firstName}.` : 'Welcome.'} Here is where your portfolio stands.</p>
      </header>
      <ErrorBox message={portfolio.error} onDismiss={portfolio.dismissError} />
      {loading ? (
        <LoadingMessage>Loading your portfolio...</LoadingMessage>
      ) : (
        <>
          {hasHoldings && rulesDone ? null : (
            <GettingStarted
              hasHoldings={hasHoldings}
              rulesDone={rulesDone}
              onHoldingsAdded={() => void reload()}
            />
          )}
          {hasHoldings ? (
            <>
              <CoverageLine coverage={coverage} />
              <SummaryCards
                holdingsCount={rows.length}
                activeRules={activeRulesCount(portfolio.rules)}
                summary={live.summary}
                quota={quota}
              />
              <div className="dashboard-grid">
                <AllocationCard slicesFor={slicesFor} />
                <TopMovers gainers={live.movers.gainers} losers={live.movers.losers} />
              </div>
            </>
          ) : null}
        </>
      )}
    </div>
  );
}
