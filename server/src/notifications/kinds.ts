/**
 * Notice kinds typed once (docs/notifications.md#the-notification-layer): which kind of notice
 * each History row's execution type is, so who receives it (an endpoint's `notices`) and what
 * the monthly quota counts (an allow-list of alert kinds) come from one table.
 */
import type { NoticeKind } from '@app/common/notifications/channels';
import { BROKER_SYNC_EXECUTION } from '@app/common/api/brokers';
import { CORPORATE_ACTION_EXECUTION } from '@app/common/corporate-actions/index';
import { DIGEST_EXECUTION } from '@app/common/digest/index';
import { TEST_EXECUTION } from '@app/common/notifications/test-notice';
import { PRICE_GUARD_EXECUTION, REARM_EXECUTION } from '@app/common/rules/index';

/** The execution type of an alert (a rule or price alert that fired). */
export const ALERT_EXECUTION = 'ALERT';

/**
 * Each execution type's kind of notice; null: recorded in History only (a re-arming, Price
 * Guard's first-price protection) or sent to one chosen endpoint (a test).
 */
export const NOTICE_KIND_OF: Readonly<Record<string, NoticeKind | null>> = {
  [ALERT_EXECUTION]: 'alert',
  [CORPORATE_ACTION_EXECUTION]: 'corporate_action',
  [DIGEST_EXECUTION]: 'digest',
  [REARM_EXECUTION]: null,
  [PRICE_GUARD_EXECUTION]: null,
  [TEST_EXECUTION]: null,
  [BROKER_SYNC_EXECUTION]: null,
};

/** The kinds the monthly quota counts: alerts only (docs/exit-rules.md#one-stock-one-alert-notices-and-the-quota). */
const QUOTA_KINDS: ReadonlySet<NoticeKind> = new Set(['alert']);

/** The execution types the quota counts, from the table. */
export const QUOTA_EXECUTION_TYPES: readonly string[] = Object.entries(NOTICE_KIND_OF)
  .filter(([, kind]) => kind !== null && QUOTA_KINDS.has(kind))
  .map(([type]) => type);

/** The kind of notice of an execution type (null: none, or a type this table does not know). */
export function noticeKindOf(executionType: string): NoticeKind | null {
  return NOTICE_KIND_OF[executionType] ?? null;
}
