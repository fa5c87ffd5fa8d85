/**
 * What each endpoint receives (docs/notifications.md#what-each-endpoint-receives): the kinds of
 * notice, ticked per endpoint in Settings. The notification layer reads `notices` when it records
 * a notice's outbox rows.
 */
import type { ApiNotificationEndpoint, EndpointNoticesInput } from '@app/common/api/endpoints';
import { and, eq } from 'drizzle-orm';
import type { SessionUser } from '../auth/require-user.ts';
import type { AppDeps } from '../deps.ts';
import { notificationEndpoints } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';
import { ENDPOINT_ERRORS } from './errors.ts';
import { loadOwnEndpoint } from './own-endpoint.ts';
import { presentEndpoint } from './presenter.ts';

/** PATCH /api/notification-endpoints/:id: sets what the user's endpoint `id` receives; 404 for anyone else's. */
export async function setEndpointNotices(
  deps: AppDeps,
  { user, id, notices }: { user: SessionUser; id: string } & EndpointNoticesInput,
): Promise<ApiNotificationEndpoint> {
  const endpoint = await loadOwnEndpoint(deps.db, { userId: user.id, id });
  const [updated] = await deps.db
    .update(notificationEndpoints)
    .set({ notices })
    .where(and(eq(notificationEndpoints.id, endpoint.id), eq(notificationEndpoints.userId, user.id)))
    .returning();
  // Deleted between the two statements (another tab).
  if (!updated) throw new NotFound(ENDPOINT_ERRORS.notFound);
  void deps.events.publish({ type: 'endpoints', userId: user.id });
  return presentEndpoint(updated, user.email);
}
