/**
 * Where each alert went (docs/notifications.md#where-each-alert-went): the outbox rows of a page
 * of executions as History shows them, in one query per page. A notice's other executions have
 * no rows of their own: they show their lead's (`notice_id`).
 */
import type { ApiDelivery } from '@app/common/api/rules';
import { CHANNELS, type Channel, type DeliveryStatus } from '@app/common/notifications/channels';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { alertDeliveries, notificationEndpoints, ruleExecutions } from '../db/schema.ts';

type RowStatus = (typeof alertDeliveries.$inferSelect)['status'];

/** The outbox's status as History words it: a row being sent is still queued. */
export const DELIVERY_STATUS_OF: Record<RowStatus, DeliveryStatus> = {
  PENDING: 'queued',
  SENDING: 'queued',
  SENT: 'sent',
  ACCEPTED: 'accepted',
  DELIVERED: 'delivered',
  READ: 'read',
  FAILED: 'failed',
};

/** The longest error History shows; the worker writes sentences, this keeps a stray dump out. */
const MAX_ERROR_LENGTH = 300;

/** The first line of a recorded error, at most MAX_ERROR_LENGTH characters: never a stack. */
export function errorSentence(lastError: string | null): string {
  const line = (lastError ?? '').split('\n', 1)[0]!.trim();
  if (!line) return 'Not sent: no reason was recorded.';
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH - 1)}…` : line;
}

/** 'r…@gmail.com': enough for the user to know which of their addresses. */
function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '…';
  return `${address[0]}…${address.slice(at)}`;
}

/** '+91…3210'. */
function maskPhone(phone: string): string {
  return phone.length > 7 ? `${phone.slice(0, 3)}…${phone.slice(-4)}` : '…';
}

/**
 * What the user sees a delivery's destination as: the endpoint's own label (a device, a Telegram
 * @username), else a masked address or number; never a push service URL or a chat id.
 */
export function destinationLabel(channel: Channel, destination: string, label: string | null): string {
  if (label?.trim()) return label.trim();
  switch (channel) {
    case 'email':
      return maskEmail(destination);
    case 'whatsapp':
      return maskPhone(destination);
    case 'webpush':
      return 'A browser';
    case 'telegram':
      return 'Telegram chat';
  }
}

/** The execution ids whose rows tell an execution: its notice's lead, or itself. */
export interface NoticeRef {
  id: string;
  noticeId: string | null;
}

const channelOrder = (channel: Channel) => CHANNELS.indexOf(channel);

/**
 * The deliveries of each of `executions` (all the user's own), by execution id: one query,
 * ordered by channel (as CHANNELS lists them) then creation.
 */
export async function deliveriesOf(
  db: Executor,
  userId: string,
  executions: readonly NoticeRef[],
): Promise<Map<string, ApiDelivery[]>> {
  const byExecution = new Map<string, ApiDelivery[]>();
  if (executions.length === 0) return byExecution;
  const leads = [...new Set(executions.map((e) => e.noticeId ?? e.id))];
  const rows = await db
    .select({
      executionId: alertDeliveries.executionId,
      channel: alertDeliveries.channel,
      destination: alertDeliveries.destination,
      status: alertDeliveries.status,
      lastError: alertDeliveries.lastError,
      statusAt: alertDeliveries.statusAt,
      sentAt: alertDeliveries.sentAt,
      createdAt: alertDeliveries.createdAt,
      label: notificationEndpoints.label,
    })
    .from(alertDeliveries)
    // The owner check: only rows under the user's own executions.
    .innerJoin(
      ruleExecutions,
      and(eq(ruleExecutions.id, alertDeliveries.executionId), eq(ruleExecutions.userId, userId)),
    )
    .leftJoin(notificationEndpoints, eq(notificationEndpoints.id, alertDeliveries.endpointId))
    .where(inArray(alertDeliveries.executionId, leads))
    .orderBy(asc(alertDeliveries.createdAt), asc(alertDeliveries.id));

  const byLead = new Map<string, ApiDelivery[]>();
  for (const row of rows.sort((a, b) => channelOrder(a.channel) - channelOrder(b.channel))) {
    const status = DELIVERY_STATUS_OF[row.status];
    const delivery: ApiDelivery = {
      channel: row.channel,
      status,
      at: (row.statusAt ?? row.sentAt ?? row.createdAt).toISOString(),
      label: destinationLabel(row.channel, row.destination, row.label),
    };
    if (status === 'failed') delivery.error = errorSentence(row.lastError);
    const list = byLead.get(row.executionId);
    if (list) list.push(delivery);
    else byLead.set(row.executionId, [delivery]);
  }
  for (const e of executions) byExecution.set(e.id, byLead.get(e.noticeId ?? e.id) ?? []);
  return byExecution;
}
