/**
 * An endpoint's "Send a test" (docs/notifications.md#the-notification-layer): a TEST History
 * row for the user (never counted in the quota, out of the bell), with one outbox row to that
 * one endpoint, handed to the delivery worker after the commit.
 */
import { sql } from 'drizzle-orm';
import type { Channel } from '@app/common/notifications/channels';
import { TEST_EXECUTION, TEST_MESSAGE } from '@app/common/notifications/test-notice';
import { queryRows } from '../db/client.ts';
import type { AppDeps, Dispatcher } from '../deps.ts';
import { deliveriesTo, insertOutbox } from './outbox-rows.ts';

export type TestNoticeDeps = Pick<AppDeps, 'db'> & { deliveries: Dispatcher };

export interface RecordedTestNotice {
  executionId: string;
  deliveryId: string;
}

/**
 * Records and dispatches a test notice to `endpointId`; null when it is not an active, verified
 * endpoint of `userId`'s (a test never goes to an address nobody proved is theirs: the caller
 * says so, say with a 404 or 409).
 */
export async function recordTestNotice(
  deps: TestNoticeDeps,
  { userId, endpointId }: { userId: string; endpointId: string },
): Promise<RecordedTestNotice | null> {
  const recorded = await deps.db.transaction(async (tx) => {
    const [endpoint] = await queryRows<{ id: string; channel: Channel; value: string }>(
      tx,
      sql`select id, type as channel, value from notification_endpoints
          where id = ${endpointId} and user_id = ${userId} and is_active and verification_status = 'verified'`,
    );
    if (!endpoint) return null;
    const [execution] = await queryRows<{ id: string }>(
      tx,
      sql`insert into rule_executions (user_id, symbol, exchange, trigger_type, execution_type, status,
            trigger_price, execution_price, message, over_quota, read_at, dismissed_at)
          values (${userId}, '', 'NSE', ${TEST_EXECUTION}, ${TEST_EXECUTION}, 'PENDING', 0, 0, ${TEST_MESSAGE},
            false, now(), now())
          returning id`,
    );
    const [deliveryId] = await insertOutbox(tx, deliveriesTo(execution!.id, [{ ...endpoint, userId }]));
    return { executionId: execution!.id, deliveryId: deliveryId! };
  });
  if (recorded) deps.deliveries.dispatch([recorded.deliveryId]);
  return recorded;
}
