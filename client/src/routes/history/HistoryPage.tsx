import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/EmptyState.tsx';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { HistoryIcon } from '../../components/icons.tsx';
import { LoadingMessage } from '../../components/Spinner.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import '../../styles/history.css';
import { ExecutionCards } from './ExecutionCards.tsx';
import { ExecutionsTable } from './ExecutionsTable.tsx';
import { DEFAULT_PERIOD, PERIODS, type PeriodDays } from './executionDisplay.ts';
import { useExecutions } from './useExecutions.ts';

/** Rule Execution History (docs/exit-rules.md, History): every alert your rules raised, by period. */
export default function HistoryPage() {
  useDocumentTitle('History');
  const [days, setDays] = useState<PeriodDays>(DEFAULT_PERIOD);
  const history = useExecutions(days);
  const { executions, total } = history;
  const periodLabel = PERIODS.find((p) => p.days === days)?.label.toLowerCase() ?? '';

  return (
    <div className="container page">
      <header className="page-header page-header-row">
        <div>
          <h1>Rule Execution History</h1>
          <p>Every time one of your rules triggered, with the price and time in IST.</p>
        </div>
        <div className="field history-period">
          <label className="field-label" htmlFor="history-period">
            Time Period
          </label>
          <select
            id="history-period"
            className="select"
            value={days}
            onChange={(e) => {
              history.dismissError();
              setDays(Number(e.target.value) as PeriodDays);
            }}
          >
            {PERIODS.map((period) => (
              <option key={period.days} value={period.days}>
                {period.label}
              </option>
            ))}
          </select>
        </div>
      </header>

      <ErrorBox message={history.error} onDismiss={history.dismissError}>
        {history.failed ? (
          <button type="button" className="btn btn-secondary btn-sm" onClick={history.retry}>
            Try again
          </button>
        ) : null}
      </ErrorBox>

      {history.loading ? (
        <div className="history-loading">
          <LoadingMessage>Loading execution history...</LoadingMessage>
        </div>
      ) : null}

      {executions?.length === 0 ? (
        <EmptyState
          icon={<HistoryIcon />}
          title="No executions found"
          action={
            <Link to="/holdings" className="btn btn-primary">
              Set up Rules
            </Link>
          }
        >
          None of your rules triggered in the {periodLabel}. Rules you set on your holdings are listed here
          when they fire.
        </EmptyState>
      ) : null}

      {executions?.length ? (
        <section aria-labelledby="history-results">
          <p id="history-results" className="history-count" aria-live="polite">
            Showing {executions.length} of {total} {total === 1 ? 'execution' : 'executions'} from the{' '}
            {periodLabel}
          </p>
          <ExecutionsTable executions={executions} />
          <ExecutionCards executions={executions} />
          {total > executions.length ? (
            <div className="history-more">
              <button
                type="button"
                className="btn btn-secondary"
                onClick={() => void history.loadMore()}
                disabled={history.loadingMore}
              >
                {history.loadingMore ? 'Loading...' : 'Load more'}
              </button>
            </div>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
