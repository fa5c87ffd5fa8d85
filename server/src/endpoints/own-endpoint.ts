import { isUuid } from '@app/common/api/uuid';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { notificationEndpoints } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';
import { ENDPOINT_ERRORS } from './errors.ts';
import type { EndpointRow } from './presenter.ts';

/** The user's endpoint `id`; NotFound for another user's id and for ids that are not UUIDs. */
export async function loadOwnEndpoint(
  db: Database,
  { userId, id }: { userId: string; id: string },
): Promise<EndpointRow> {
  if (!isUuid(id)) throw new NotFound(ENDPOINT_ERRORS.notFound);
  const [endpoint] = await db
    .select()
    .from(notificationEndpoints)
    .where(and(eq(notificationEndpoints.id, id), eq(notificationEndpoints.userId, userId)));
  if (!endpoint) throw new NotFound(ENDPOINT_ERRORS.notFound);
  return endpoint;
}
