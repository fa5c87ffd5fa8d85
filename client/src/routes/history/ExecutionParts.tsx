import { Fragment } from 'react';
import {
  executionPriceLines,
  IN_APP_ONLY,
  NO_DETAILS,
  ruleTypeLabel,
  statusLabel,
  statusTone,
  subjectLabel,
  triggeredAtLines,
  type HistoryExecution,
} from './executionDisplay.ts';

/** The status badge: 'Alert sent' green, 'Not sent' red, anything else ('In-app only') yellow. */
export function StatusBadge({ status, executionType }: { status: string; executionType?: string }) {
  return (
    <span
      className={`badge badge-${statusTone(status)} execution-status`}
      data-status={status}
      title={statusTitle(status)}
    >
      {statusLabel(status, executionType)}
    </span>
  );
}

function statusTitle(status: string): string | undefined {
  return status === IN_APP_ONLY ? 'Shown here in the app; no email was sent' : undefined;
}

/** The IST date over the time, as one `<time>`. */
export function TriggeredAt({ executedAt }: { executedAt: string }) {
  const [date, time] = triggeredAtLines(executedAt);
  return (
    <time dateTime={executedAt} className="triggered-at">
      <span>{date}</span>
      <span className="triggered-at-time">{time}</span>
    </time>
  );
}

/** The rule's type ('Trailing stop loss', 'Re-armed · …') and, when the server names it, the rule's name. */
export function ExecutionRule({ execution }: { execution: HistoryExecution }) {
  return (
    <>
      <span className="history-rule-type">
        {ruleTypeLabel(execution.trigger_type, execution.execution_type)}
      </span>
      {execution.rule_name ? <span className="history-rule-name">{execution.rule_name}</span> : null}
    </>
  );
}

/** The symbol and its exchange; 'Evening digest' or 'Test message' for a row that names no instrument. */
export function ExecutionSymbol({ execution }: { execution: HistoryExecution }) {
  const label = subjectLabel(execution);
  if (label) return <span>{label}</span>;
  return (
    <>
      <span>{execution.symbol}</span>
      <span className="history-exchange">{execution.exchange}</span>
    </>
  );
}

/** 'Trigger ₹2,697.00 · Hit at ₹2,690.50' (labels of {@link executionPriceLines}) on one line. */
export function ExecutionPrices({ execution }: { execution: HistoryExecution }) {
  const lines = executionPriceLines(execution);
  if (lines.length === 0) return null;
  return (
    <span className="execution-prices numeric">
      {lines.map((line, i) => (
        <Fragment key={line.label}>
          {i > 0 ? <span aria-hidden="true"> · </span> : null}
          <span>
            {line.label} {line.value}
          </span>
        </Fragment>
      ))}
    </span>
  );
}

/** The message, 'No additional details' when empty, and a word when the alert was not sent. */
export function ExecutionMessage({ execution }: { execution: HistoryExecution }) {
  const message = execution.message?.trim();
  return (
    <>
      {message ? (
        <span className="execution-message">{message}</span>
      ) : (
        <span className="execution-message text-muted">{NO_DETAILS}</span>
      )}
      {execution.over_quota ? (
        <span className="execution-quota">Not emailed: monthly alert limit reached</span>
      ) : null}
    </>
  );
}
