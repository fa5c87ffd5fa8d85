/**
 * "Send a test" (docs/notifications.md#send-a-test): `POST /api/notification-endpoints/:id/test`
 * records a test notice to the user's own endpoint and hands it to the delivery worker at once.
 * Only an active, verified endpoint takes one: a test never goes to an address nobody proved is
 * theirs, and a turned-off endpoint says why it is off.
 */
import { TEST_REFUSALS, turnedOffRefusal } from '@app/common/notifications/test-notice';
import type { Database } from '../db/client.ts';
import { Conflict } from '../http/errors.ts';
import { recordTestNotice, type TestNoticeDeps } from '../notifications/test-notice.ts';
import { loadOwnEndpoint } from './own-endpoint.ts';
import type { EndpointRow } from './presenter.ts';

/** The user's endpoint `id` when it can take a test; 404 for anyone else's, 409 with why not. */
export async function loadTestableEndpoint(
  db: Database,
  { userId, id }: { userId: string; id: string },
): Promise<EndpointRow> {
  const endpoint = await loadOwnEndpoint(db, { userId, id });
  if (endpoint.verificationStatus !== 'verified') throw new Conflict(TEST_REFUSALS.pending);
  if (!endpoint.isActive) throw new Conflict(turnedOffRefusal(endpoint.inactiveReason));
  return endpoint;
}

/** Records and dispatches the test; answers the History row's id. */
export async function sendTest(
  deps: TestNoticeDeps,
  { userId, id }: { userId: string; id: string },
): Promise<{ execution_id: string }> {
  const recorded = await recordTestNotice(deps, { userId, endpointId: id });
  if (recorded) return { execution_id: recorded.executionId };
  // Changed since the route checked it (deleted or turned off meanwhile): say how it is now.
  await loadTestableEndpoint(deps.db, { userId, id });
  throw new Conflict(TEST_REFUSALS.pending);
}
