import {
  ExecutionMessage,
  ExecutionPrices,
  ExecutionRule,
  ExecutionSymbol,
  StatusBadge,
  TriggeredAt,
} from './ExecutionParts.tsx';
import { DeliveryBadges, DeliveryDetails } from './Deliveries.tsx';
import { executionSubject, type HistoryExecution } from './executionDisplay.ts';

/**
 * The History table (docs/exit-rules.md): Symbol, Rule Type, Triggered At, Status (with a badge per
 * channel it went to), Message (with where it went, folded).
 */
export function ExecutionsTable({ executions }: { executions: HistoryExecution[] }) {
  return (
    <div className="table-wrap history-table-wrap">
      <table className="table history-table">
        <caption className="visually-hidden">Rule executions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col">Rule Type</th>
            <th scope="col">Triggered At</th>
            <th scope="col">Status</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {executions.map((execution) => (
            <tr key={execution.id}>
              <th scope="row" className="history-symbol">
                <ExecutionSymbol execution={execution} />
              </th>
              <td>
                <ExecutionRule execution={execution} />
                <ExecutionPrices execution={execution} />
              </td>
              <td>
                <TriggeredAt executedAt={execution.executed_at} />
              </td>
              <td>
                <StatusBadge status={execution.status} executionType={execution.execution_type} />
                <DeliveryBadges deliveries={execution.deliveries} />
              </td>
              <td className="history-message">
                <ExecutionMessage execution={execution} />
                <DeliveryDetails deliveries={execution.deliveries} subject={executionSubject(execution)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
