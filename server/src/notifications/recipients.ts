/**
 * Who receives a notice, in one place (docs/notifications.md#the-notification-layer): the
 * active, verified endpoints whose `notices` include the notice's kind, of a channel this server
 * has a sender for, and for a messaging app (Telegram, WhatsApp) only when the user is on the
 * Advanced tier. SQL fragments, so the crash-day claim reads them in the statement it already
 * runs (no round trip more per chunk).
 */
import { sql, type SQL } from 'drizzle-orm';
import { MESSAGING_CHANNELS, type Channel, type NoticeKind } from '@app/common/notifications/channels';
import { pgArray } from '../db/arrays.ts';

/** What a notice is given: a kind, and the channels configured on this server. */
export interface RecipientFilter {
  kind: NoticeKind;
  channels: ReadonlySet<Channel>;
}

/** One endpoint a notice goes to. */
export interface Recipient {
  id: string;
  userId: string;
  channel: Channel;
  value: string;
}

/**
 * True for an endpoint row `e` (notification_endpoints) of the user `u` (users) that receives
 * notices of `kind`.
 */
export function receivesSql(e: string, u: string, { kind, channels }: RecipientFilter): SQL {
  const [ep, user] = [sql.raw(e), sql.raw(u)];
  const messaging = [...MESSAGING_CHANNELS];
  return sql`(${ep}.is_active and ${ep}.verification_status = 'verified'
    and ${kind}::text = any(${ep}.notices)
    and ${ep}.type = any(${pgArray([...channels])}::text[])
    and (${ep}.type <> all(${pgArray(messaging)}::text[]) or ${user}.subscription_tier = 'advanced'))`;
}

/**
 * The endpoints of `userIds` that receive notices of `kind`: `id, user_id, channel, value,
 * created_at` (a CTE's body or a statement of its own).
 */
export function recipientsSql(userIds: readonly string[], filter: RecipientFilter): SQL {
  return sql`select e.id, e.user_id, e.type as channel, e.value, e.created_at
    from notification_endpoints e join users u on u.id = e.user_id
    where e.user_id = any(${pgArray([...userIds])}::uuid[]) and ${receivesSql('e', 'u', filter)}`;
}

/** Rows of recipientsSql (oldest endpoint first) grouped by user. */
export function recipientsByUser(
  rows: ReadonlyArray<{ id: string; user_id: string; channel: Channel; value: string }>,
): Map<string, Recipient[]> {
  const byUser = new Map<string, Recipient[]>();
  for (const r of rows) {
    const list = byUser.get(r.user_id) ?? [];
    list.push({ id: r.id, userId: r.user_id, channel: r.channel, value: r.value });
    byUser.set(r.user_id, list);
  }
  return byUser;
}
