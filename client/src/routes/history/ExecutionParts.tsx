import { CORPORATE_ACTION_EXECUTION } from '@app/common/corporate-actions/describe';
import { DIGEST_EXECUTION, DIGEST_HISTORY_LABEL } from '@app/common/digest/index';
import { formatInr } from '@app/common/format/index';
import { REARM_EXECUTION } from '@app/common/rules/rearm';
import {
  IN_APP_ONLY,
  NO_DETAILS,
  statusLabel,
  statusTone,
  triggeredAtLines,
  type HistoryExecution,
} from './executionDisplay.ts';

/** The status badge: SUCCESS green, FAILED red, 'In-app only' grey, anything else yellow. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-${statusTone(status)} execution-status`} title={statusTitle(status)}>
      {statusLabel(status)}
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

/** An evening digest's row: a summary email, with no instrument and no prices. */
export const isDigest = (execution: HistoryExecution) => execution.execution_type === DIGEST_EXECUTION;

/** The symbol and its exchange; 'Evening digest' for a digest's row. */
export function ExecutionSymbol({ execution }: { execution: HistoryExecution }) {
  if (isDigest(execution)) return <span>{DIGEST_HISTORY_LABEL}</span>;
  return (
    <>
      <span>{execution.symbol}</span>
      <span className="history-exchange">{execution.exchange}</span>
    </>
  );
}

/**
 * 'Trigger ₹2,697.00 · Hit at ₹2,690.50': the rule's level and the price that crossed it. A
 * corporate action's row shows a level before and after it instead: 'Adjusted ₹2,850.00 → ₹1,425.00';
 * a digest's row none.
 */
export function ExecutionPrices({ execution }: { execution: HistoryExecution }) {
  if (isDigest(execution)) return null;
  if (execution.execution_type === CORPORATE_ACTION_EXECUTION) {
    return (
      <span className="execution-prices numeric">
        Adjusted {formatInr(execution.trigger_price)} → {formatInr(execution.execution_price)}
      </span>
    );
  }
  const rearm = execution.execution_type === REARM_EXECUTION;
  return (
    <span className="execution-prices numeric">
      <span>
        {rearm ? 'Re-arm price' : 'Trigger'} {formatInr(execution.trigger_price)}
      </span>
      <span aria-hidden="true"> · </span>
      <span>Hit at {formatInr(execution.execution_price)}</span>
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
