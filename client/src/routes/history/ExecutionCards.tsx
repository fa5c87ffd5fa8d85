import { formatInr } from '@app/common/format/index';
import { ExecutionMessage, ExecutionSymbol, isDigest, StatusBadge, TriggeredAt } from './ExecutionParts.tsx';
import { ruleTypeLabel, type HistoryExecution } from './executionDisplay.ts';

/** The History list under 768 px: one card per execution instead of the wide table. */
export function ExecutionCards({ executions }: { executions: HistoryExecution[] }) {
  return (
    <ul className="execution-cards" aria-label="Rule executions, newest first">
      {executions.map((execution) => (
        <li key={execution.id} className="execution-card">
          <div className="execution-card-head">
            <span className="history-symbol">
              <ExecutionSymbol execution={execution} />
            </span>
            <StatusBadge status={execution.status} />
          </div>
          <dl className="execution-card-details">
            <div>
              <dt>Rule Type</dt>
              <dd>
                <span className="history-rule-type">
                  {ruleTypeLabel(execution.trigger_type, execution.execution_type)}
                </span>
                {execution.rule_name ? (
                  <span className="history-rule-name">{execution.rule_name}</span>
                ) : null}
              </dd>
            </div>
            <div>
              <dt>Triggered At</dt>
              <dd>
                <TriggeredAt executedAt={execution.executed_at} />
              </dd>
            </div>
            {isDigest(execution) ? null : (
              <>
                <div>
                  <dt>Trigger</dt>
                  <dd className="numeric">{formatInr(execution.trigger_price)}</dd>
                </div>
                <div>
                  <dt>Hit at</dt>
                  <dd className="numeric">{formatInr(execution.execution_price)}</dd>
                </div>
              </>
            )}
            <div className="execution-card-message">
              <dt>Message</dt>
              <dd>
                <ExecutionMessage execution={execution} />
              </dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}
