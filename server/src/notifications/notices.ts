/**
 * What a notice says, for the channels without their own templates (Web Push, Telegram,
 * WhatsApp): loaded for a batch of executions in one query and worded channel-neutral
 * (notifications/channel.ts NoticeText): "INFY stop loss hit" / "₹1,234.50 crossed ₹1,240.00 ·
 * 10:41 IST", a tap opening the holding.
 */
import { sql } from 'drizzle-orm';
import { DIGEST_HISTORY_LABEL } from '@app/common/digest/index';
import { formatInr, formatIstTime } from '@app/common/format/index';
import { TEST_EXECUTION, TEST_NOTICE } from '@app/common/notifications/test-notice';
import { firedTitle, isProtectiveAlert, triggerTypeLabel } from '@app/common/rules/index';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor } from '../db/client.ts';
import type { NoticeText } from './channel.ts';
import { holdingsUrl } from './links.ts';
import { noticeKindOf } from './kinds.ts';

/** A notice's History row, as much of it as its words need. */
export interface NoticeRow {
  execution_id: string;
  user_id: string;
  execution_type: string;
  symbol: string;
  exchange: string;
  trigger_type: string;
  message: string | null;
  trigger_price: string;
  execution_price: string;
  executed_at: Date | string;
  rule_id: string | null;
  price_alert_id: string | null;
}

/** The notices of `executionIds`, by execution id (absent: the execution is gone). */
export async function loadNotices(
  db: Executor,
  executionIds: readonly string[],
): Promise<Map<string, NoticeRow>> {
  if (executionIds.length === 0) return new Map();
  const rows = await queryRows<NoticeRow>(
    db,
    sql`select id as execution_id, user_id, execution_type, symbol, exchange, trigger_type, message,
               trigger_price, execution_price, executed_at, rule_id, price_alert_id
        from rule_executions where id = any(${pgArray([...executionIds])}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.execution_id, r]));
}

/** The words and link of a notice. */
export function noticeText(appUrl: string, n: NoticeRow): NoticeText {
  const holding = holdingsUrl(appUrl, n.symbol);
  const symbol = n.symbol === '' ? null : n.symbol;
  if (n.execution_type === TEST_EXECUTION) {
    return {
      kind: 'test',
      title: TEST_NOTICE.title,
      body: TEST_NOTICE.body,
      url: `${appUrl}/settings`,
      tag: `test-${n.execution_id}`,
      protective: false,
      symbol: null,
    };
  }
  const kind = noticeKindOf(n.execution_type) ?? 'alert';
  if (kind === 'digest') {
    return {
      kind,
      title: DIGEST_HISTORY_LABEL,
      body: n.message ?? '',
      url: `${appUrl}/history`,
      tag: `digest-${n.user_id}`,
      protective: false,
      symbol: null,
    };
  }
  if (kind === 'corporate_action') {
    return {
      kind,
      title: `${n.symbol} ${triggerTypeLabel(n.trigger_type).toLowerCase()}: rules adjusted`,
      body: n.message ?? '',
      url: holding,
      tag: `corporate-action-${n.exchange}-${n.symbol}`,
      protective: false,
      symbol,
    };
  }
  const at = formatIstTime(new Date(n.executed_at), { seconds: false });
  return {
    kind,
    title: firedTitle(n.symbol, n.trigger_type),
    body: `${formatInr(Number(n.execution_price))} crossed ${formatInr(Number(n.trigger_price))} · ${at} IST`,
    url: holding,
    tag: n.rule_id
      ? `rule-${n.rule_id}`
      : n.price_alert_id
        ? `price-alert-${n.price_alert_id}`
        : `alert-${n.execution_id}`,
    protective: isProtectiveAlert(n.trigger_type),
    symbol,
  };
}
