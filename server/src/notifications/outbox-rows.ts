/**
 * A notice's outbox rows (`alert_deliveries`), written in the transaction that records the
 * notice: one per recipient endpoint, its `channel` the endpoint's type and `destination` its
 * value. One insert for every path (the crash-day claim runs it as a CTE of its statement; the
 * digest, corporate actions and tests run it alone), set-based whatever the number of rows.
 */
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Channel } from '@app/common/notifications/channels';
import { pgArray } from '../db/arrays.ts';
import type { Executor } from '../db/client.ts';
import type { Recipient } from './recipients.ts';

/** An outbox row: one notice (its execution) to one endpoint. */
export interface NewDelivery {
  id: string;
  executionId: string;
  endpointId: string;
  channel: Channel;
  destination: string;
}

/** The rows of one execution to its recipients (ids made here, so callers know them before the insert). */
export function deliveriesTo(executionId: string, recipients: readonly Recipient[]): NewDelivery[] {
  return recipients.map((r) => ({
    id: randomUUID(),
    executionId,
    endpointId: r.id,
    channel: r.channel,
    destination: r.value,
  }));
}

/** The insert, as one statement or a CTE's body. */
export function insertOutboxSql(deliveries: readonly NewDelivery[]): SQL {
  const col = <K extends keyof NewDelivery>(k: K) => pgArray(deliveries.map((d) => d[k]));
  return sql`insert into alert_deliveries (id, execution_id, endpoint_id, channel, destination)
    select d.id, d.execution_id, d.endpoint_id, d.channel, d.destination
    from unnest(${col('id')}::uuid[], ${col('executionId')}::uuid[], ${col('endpointId')}::uuid[],
      ${col('channel')}::text[], ${col('destination')}::text[]) as d(id, execution_id, endpoint_id, channel, destination)`;
}

/** Inserts the rows; their ids, to hand to the delivery worker after the commit. */
export async function insertOutbox(db: Executor, deliveries: readonly NewDelivery[]): Promise<string[]> {
  if (deliveries.length > 0) await db.execute(insertOutboxSql(deliveries));
  return deliveries.map((d) => d.id);
}
