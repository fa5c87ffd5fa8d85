/**
 * Adding a browser's push subscription as a `webpush` endpoint (docs/notifications.md#web-push):
 * verified by being created, value = the endpoint URL, meta = {keys}, label = the device. The
 * same subscription again is the same endpoint (its keys refreshed, turned back on); at most
 * MAX_PUSH_ENDPOINTS per user; a subscription another account held on this browser moves to
 * this one, so a shared browser never shows one person's alerts to the next.
 */
import { createECDH } from 'node:crypto';
import { type AddPushEndpointInput, type ApiEndpointSendResult } from '@app/common/api/endpoints';
import { deviceLabel, MAX_PUSH_ENDPOINTS, PUSH_MESSAGES } from '@app/common/endpoints/webpush';
import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { SessionUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { notificationEndpoints } from '../../db/schema.ts';
import { Invalid } from '../../http/errors.ts';
import { presentEndpoint } from '../../endpoints/presenter.ts';
import { checkPushEndpoint, type Resolve } from './address-guard.ts';

/** Whether `p256dh` (65 bytes, 0x04 first: checked by the body schema) is a point on P-256 (RFC 8291 asks for the check). */
export function isOnP256(p256dh: string): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(Buffer.from(p256dh, 'base64url'));
    return true;
  } catch {
    return false;
  }
}

export interface AddPushEndpointCommand extends Omit<AddPushEndpointInput, 'type'> {
  user: SessionUser;
  /** The request's User-Agent: the label when none was given. */
  userAgent: string | undefined;
  /** Tests resolve names their own way. */
  resolve?: Resolve;
}

/** The result and whether the row is new (201) or the same subscription again (200). */
export async function addPushEndpoint(
  deps: Pick<AppDeps, 'db' | 'config' | 'events'>,
  { user, subscription, label, userAgent, resolve }: AddPushEndpointCommand,
): Promise<{ endpoint: ApiEndpointSendResult; created: boolean }> {
  const { endpoint: url, keys } = subscription;
  if (!isOnP256(keys.p256dh)) throw new Invalid(PUSH_MESSAGES.p256dh);
  const check = await checkPushEndpoint(url, {
    allowPrivate: deps.config.WEBPUSH_ALLOW_PRIVATE_ENDPOINTS,
    resolve,
  });
  if (!check.ok) {
    throw new Invalid(check.reason === 'private' ? PUSH_MESSAGES.privateAddress : PUSH_MESSAGES.unresolved);
  }
  const t = notificationEndpoints;
  const { row, created, movedFrom } = await deps.db.transaction(async (tx) => {
    // One add at a time per user, so two devices enabled at once cannot pass the bound together.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webpush:${user.id}`}))`);
    const [existing] = await tx
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.userId, user.id), eq(t.type, 'webpush'), eq(t.valueKey, url)));
    if (!existing) {
      const [held] = await tx
        .select({ n: count() })
        .from(t)
        .where(and(eq(t.userId, user.id), eq(t.type, 'webpush')));
      if ((held?.n ?? 0) >= MAX_PUSH_ENDPOINTS) throw new Invalid(PUSH_MESSAGES.tooMany);
    }
    const moved = await tx
      .delete(t)
      .where(and(eq(t.type, 'webpush'), eq(t.valueKey, url), ne(t.userId, user.id)))
      .returning({ userId: t.userId });
    const [saved] = await tx
      .insert(t)
      .values({
        userId: user.id,
        type: 'webpush',
        value: url,
        // An endpoint URL is opaque and case-sensitive: its own key.
        valueKey: url,
        label: label ?? deviceLabel(userAgent),
        meta: { keys: { p256dh: keys.p256dh, auth: keys.auth } },
        verificationStatus: 'verified',
        verifiedAt: new Date(),
      })
      .onConflictDoUpdate({
        target: [t.userId, t.type, t.valueKey],
        set: {
          meta: sql`excluded.meta`,
          isActive: true,
          inactiveReason: null,
          ...(label ? { label } : {}),
        },
      })
      .returning();
    if (!saved) throw new Error('the push endpoint was neither inserted nor updated');
    return { row: saved, created: !existing, movedFrom: moved.map((m) => m.userId) };
  });
  for (const userId of new Set([user.id, ...movedFrom]))
    void deps.events.publish({ type: 'endpoints', userId });
  return { endpoint: { ...presentEndpoint(row, user.email), email_sent: false, notice: null }, created };
}
