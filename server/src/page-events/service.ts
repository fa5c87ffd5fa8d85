/** First-party page views (POST /api/events): stored with the signed-in user, or anonymous. */
import type { PageEventInput } from '@app/common/api/auth';
import type { AppDeps } from '../deps.ts';
import { pageEvents } from '../db/schema.ts';

/** Stores one page event; `userId` null when nobody (or an invalid token) sent it. */
export async function recordPageEvent(
  deps: Pick<AppDeps, 'db'>,
  { event, userId }: { event: PageEventInput; userId: string | null },
): Promise<void> {
  await deps.db.insert(pageEvents).values({ ...event, userId });
}
