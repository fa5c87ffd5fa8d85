/**
 * Records evening digests, each exactly once per user and IST day across instances and
 * restarts: one transaction inserts the `digests` row (`ON CONFLICT DO NOTHING`: a second
 * instance waits on the key, then finds it taken and writes nothing), the History row (already
 * dismissed from the bell: it is a summary, not news) and one outbox row per verified email.
 * After the commit the outbox is handed to the delivery worker, which renders the stored content.
 */
import { sql } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Executor } from '../db/client.ts';
import type { AppDeps } from '../deps.ts';
import { alertDeliveries, digests, ruleExecutions } from '../db/schema.ts';
import {
  DIGEST_EXECUTION,
  digestContent,
  digestSummary,
  type DigestContent,
  type DigestDay,
} from './content.ts';

export type DigestDeps = Pick<AppDeps, 'db' | 'log'> & {
  /** Hands committed outbox rows to the delivery worker. */
  deliveries: { dispatch(deliveryIds: string[]): void };
};

/** Users due a digest for `day`: opted in, with an active rule and a verified email, none yet. */
export async function dueDigestUsers(db: Executor, day: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select u.id from users u
        where u.evening_digest
          and exists (select 1 from position_rules r where r.user_id = u.id and r.is_active)
          and exists (select 1 from notification_endpoints e
                       where e.user_id = u.id and e.type = 'email' and e.is_active
                         and e.verification_status = 'verified')
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
    const endpoints = await queryRows<{ id: string; value: string }>(
      tx,
      sql`select id, value from notification_endpoints
          where user_id = ${userId} and type = 'email' and is_active and verification_status = 'verified'`,
    );
    const [execution] = await tx
      .insert(ruleExecutions)
      .values({
        userId,
        symbol: '',
        exchange: 'NSE',
        triggerType: DIGEST_EXECUTION,
        executionType: DIGEST_EXECUTION,
        status: endpoints.length > 0 ? 'PENDING' : 'IN_APP_ONLY',
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
    const deliveries =
      endpoints.length === 0
        ? []
        : await tx
            .insert(alertDeliveries)
            .values(
              endpoints.map((ep) => ({
                executionId: execution!.id,
                endpointId: ep.id,
                channel: 'email' as const,
                destination: ep.value,
              })),
            )
            .returning({ id: alertDeliveries.id });
    return { userId, content, deliveryIds: deliveries.map((d) => d.id) };
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
