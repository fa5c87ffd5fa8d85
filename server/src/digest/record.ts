/**
 * Records evening digests, each exactly once per user and IST day across instances and
 * restarts: one transaction inserts the `digests` row (`ON CONFLICT DO NOTHING`: a second
 * instance waits on the key, then finds it taken and writes nothing), the History row (already
 * dismissed from the bell: it is a summary, not news) and one outbox row per endpoint that
 * receives digests (notifications/recipients.ts). After the commit the outbox is handed to the
 * delivery worker; the email renders the stored content.
 */
import { sql } from 'drizzle-orm';
import type { Channel } from '@app/common/notifications/channels';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { IN_APP_ONLY } from '../executions/history.ts';
import { digests, ruleExecutions } from '../db/schema.ts';
import { deliveriesTo, insertOutbox } from '../notifications/outbox-rows.ts';
import { receivesSql, recipientsSql, type Recipient } from '../notifications/recipients.ts';
import { configuredChannels } from '../notifications/senders.ts';
import {
  DIGEST_EXECUTION,
  digestContent,
  digestSummary,
  type DigestContent,
  type DigestDay,
} from './content.ts';

export type DigestDeps = Pick<AppDeps, 'db' | 'log' | 'senders'> & {
  /** Hands committed outbox rows to the delivery worker. */
  deliveries: { dispatch(deliveryIds: string[]): void };
};

/**
 * Users due a digest for `day`: opted in, with an active rule and an endpoint that receives
 * digests (on `channels`), none yet.
 */
export async function dueDigestUsers(
  db: Executor,
  day: string,
  channels: ReadonlySet<Channel>,
): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select u.id from users u
        where u.evening_digest
          and exists (select 1 from position_rules r where r.user_id = u.id and r.is_active)
          and exists (select 1 from notification_endpoints e
                       where e.user_id = u.id and ${receivesSql('e', 'u', { kind: 'digest', channels })})
          and not exists (select 1 from digests d where d.user_id = u.id and d.day = ${day}::date)
        order by u.id`,
  );
  return rows.map((r) => r.id);
}

export interface RecordedDigest {
  userId: string;
  content: DigestContent;
  deliveryIds: string[];
}

/** Records one user's digest for `day`; null when it was already recorded (here or elsewhere). */
export async function recordDigest(
  deps: DigestDeps,
  { userId, day, nextDay }: DigestDay,
): Promise<RecordedDigest | null> {
  const recorded = await deps.db.transaction(async (tx) => {
    const content = await digestContent(tx, { userId, day, nextDay });
    const [claimed] = await tx
      .insert(digests)
      .values({ userId, day, content })
      .onConflictDoNothing()
      .returning({ userId: digests.userId });
    if (!claimed) return null;
    const endpoints = await queryRows<Recipient>(
      tx,
      sql`select id, user_id as "userId", channel, value from (${recipientsSql([userId], {
        kind: 'digest',
        channels: configuredChannels(deps.senders),
      })}) r order by created_at, id`,
    );
    const [execution] = await tx
      .insert(ruleExecutions)
      .values({
        userId,
        symbol: '',
        exchange: 'NSE',
        triggerType: DIGEST_EXECUTION,
        executionType: DIGEST_EXECUTION,
        status: endpoints.length > 0 ? 'PENDING' : IN_APP_ONLY,
        triggerPrice: '0',
        executionPrice: '0',
        message: digestSummary(content),
        overQuota: false,
        readAt: sql`now()`,
        dismissedAt: sql`now()`,
      })
      .returning({ id: ruleExecutions.id });
    await tx
      .update(digests)
      .set({ executionId: execution!.id })
      .where(sql`${digests.userId} = ${userId} and ${digests.day} = ${day}::date`);
    const deliveryIds = await insertOutbox(tx, deliveriesTo(execution!.id, endpoints));
    return { userId, content, deliveryIds };
  });
  if (recorded && recorded.deliveryIds.length > 0) deps.deliveries.dispatch(recorded.deliveryIds);
  return recorded;
}

/** The stored digest contents of executions, by execution id (for the delivery worker). */
export async function digestsOfExecutions(
  db: Executor,
  executionIds: string[],
): Promise<Map<string, DigestContent>> {
  if (executionIds.length === 0) return new Map();
  const rows = await queryRows<{ execution_id: string; content: DigestContent }>(
    db,
    sql`select execution_id, content from digests where execution_id = any(${pgArray(executionIds)}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.execution_id, r.content]));
}
