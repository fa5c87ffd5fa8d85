import {
  ExecutionMessage,
  ExecutionRule,
  ExecutionSymbol,
  StatusBadge,
  TriggeredAt,
} from './ExecutionParts.tsx';
import { DeliveryBadges, DeliveryDetails } from './Deliveries.tsx';
import { executionPriceLines, executionSubject, type HistoryExecution } from './executionDisplay.ts';

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
            <StatusBadge status={execution.status} executionType={execution.execution_type} />
          </div>
          <DeliveryBadges deliveries={execution.deliveries} />
          <dl className="execution-card-details">
            <div>
              <dt>Rule Type</dt>
              <dd>
                <ExecutionRule execution={execution} />
              </dd>
            </div>
            <div>
              <dt>Triggered At</dt>
              <dd>
                <TriggeredAt executedAt={execution.executed_at} />
              </dd>
            </div>
            {executionPriceLines(execution).map((line) => (
              <div key={line.label}>
                <dt>{line.label}</dt>
                <dd className="numeric">{line.value}</dd>
              </div>
            ))}
            <div className="execution-card-message">
              <dt>Message</dt>
              <dd>
                <ExecutionMessage execution={execution} />
              </dd>
            </div>
          </dl>
          <DeliveryDetails deliveries={execution.deliveries} subject={executionSubject(execution)} />
        </li>
      ))}
    </ul>
  );
}
