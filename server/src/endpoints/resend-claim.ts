/**
 * A resend of an endpoint's proof (a verification email's link, a WhatsApp number's code) claimed
 * in one conditional update: pending, the user's, and not sent within RESEND_INTERVAL_MS, so two
 * instances cannot both send within the minute. Otherwise 409 (verified meanwhile) or 429.
 */
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { notificationEndpoints } from '../db/schema.ts';
import { Conflict, TooManyRequests } from '../http/errors.ts';
import { ENDPOINT_ERRORS } from './errors.ts';
import { loadOwnEndpoint } from './own-endpoint.ts';
import type { EndpointRow } from './presenter.ts';
import { RESEND_INTERVAL_MS } from './tokens.ts';

/** Writes `set` (the new proof, `lastSentAt: now` among it) when the resend may go; the row as claimed. */
export async function claimResend(
  db: Database,
  {
    userId,
    endpointId,
    now,
    set,
    tooSoon,
  }: {
    userId: string;
    endpointId: string;
    now: Date;
    set: Partial<typeof notificationEndpoints.$inferInsert>;
    /** The 429's sentence. */
    tooSoon: string;
  },
): Promise<EndpointRow> {
  const t = notificationEndpoints;
  const [claimed] = await db
    .update(t)
    .set(set)
    .where(
      and(
        eq(t.id, endpointId),
        eq(t.userId, userId),
        eq(t.verificationStatus, 'pending'),
        or(isNull(t.lastSentAt), lte(t.lastSentAt, new Date(now.getTime() - RESEND_INTERVAL_MS))),
      ),
    )
    .returning();
  if (claimed) return claimed;
  const current = await loadOwnEndpoint(db, { userId, id: endpointId });
  if (current.verificationStatus === 'verified') throw new Conflict(ENDPOINT_ERRORS.alreadyVerified);
  const waitMs = (current.lastSentAt?.getTime() ?? 0) + RESEND_INTERVAL_MS - now.getTime();
  throw new TooManyRequests(Math.min(60, Math.max(1, waitMs / 1000)), tooSoon);
}
