import type { ApiRuleExecution } from '@app/common/api/rules';
import { formatInr } from '@app/common/format/money';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage, isAbortError } from '../../../../api/client.ts';
import { ErrorBox } from '../../../../components/ErrorBox.tsx';
import { LoadingMessage } from '../../../../components/Spinner.tsx';
import { StatusBadge, TriggeredAt } from '../../../history/ExecutionParts.tsx';
import { ruleTypeLabel } from '../../../history/executionDisplay.ts';
import { rulesApi } from '../rulesApi.ts';

const DAYS = 30;
const LIMIT = 20;

type Load =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'done'; rows: ApiRuleExecution[]; total: number };

/** The Execution History tab: the last 30 days' triggers, newest first, with a link to History. */
export function ExecutionHistoryTab() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    rulesApi.executions(DAYS, LIMIT).then(
      (page) => live && setLoad({ state: 'done', rows: page.executions, total: page.total }),
      (err: unknown) => {
        if (!live || isAbortError(err)) return;
        setLoad({ state: 'error', message: errorMessage(err, 'Failed to load history') });
      },
    );
    return () => {
      live = false;
    };
  }, []);

  if (load.state === 'loading') return <LoadingMessage>Loading execution history...</LoadingMessage>;
  if (load.state === 'error') return <ErrorBox message={load.message} />;
  if (load.rows.length === 0)
    return <p className="text-muted">No rule has triggered in the last {DAYS} days.</p>;
  return (
    <>
      <ul className="execution-mini-list" aria-label="Recent executions">
        {load.rows.map((row) => (
          <li key={row.id} className="execution-mini">
            <div className="execution-mini-head">
              <strong>{row.symbol}</strong>
              <span className="execution-mini-type">
                {ruleTypeLabel(row.trigger_type, row.execution_type)}
              </span>
              <StatusBadge status={row.status} />
            </div>
            <p className="execution-mini-message">
              {row.message ?? `Hit at ${formatInr(row.execution_price)}`}
            </p>
            <TriggeredAt executedAt={row.executed_at} />
          </li>
        ))}
      </ul>
      <p className="execution-mini-more">
        {load.total > load.rows.length ? `Showing ${load.rows.length} of ${load.total}. ` : null}
        <Link to="/history">Open Rule Execution History</Link>
      </p>
    </>
  );
}
