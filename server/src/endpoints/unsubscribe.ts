/**
 * One-click unsubscribe (RFC 8058, issue #28): every alert email carries `List-Unsubscribe` with a
 * link of its own address. The token is the endpoint's id and an HMAC of it under the server's
 * key, so it needs no table and cannot be forged; using it turns that address's alerts off (the
 * endpoint stays, inactive: Settings turns it back on). A mail client POSTs to the link; a person
 * who opens it is sent to a page that asks first, as link scanners must not unsubscribe anyone.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { UUID_PATTERN } from '@app/common/api/uuid';
import { eq } from 'drizzle-orm';
import type { AppDeps } from '../deps.ts';
import { notificationEndpoints } from '../db/schema.ts';
import { NotFound } from '../http/errors.ts';

/** The refusal of a token that is not ours (or whose address is gone). */
export const UNSUBSCRIBE_LINK_INVALID =
  'This unsubscribe link is not valid. Manage your alert emails in Settings.';

const signature = (secret: string, endpointId: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${endpointId}`).digest('base64url');

/** The token of `endpointId`'s unsubscribe link. */
export function unsubscribeToken(secret: string, endpointId: string): string {
  return `${endpointId}.${signature(secret, endpointId)}`;
}

/** The endpoint a token names, or null when it is not one of ours. */
export function endpointOfToken(secret: string, token: string): string | null {
  const [id, mac, ...rest] = token.split('.');
  if (!id || !mac || rest.length > 0 || !UUID_PATTERN.test(id)) return null;
  const expected = Buffer.from(signature(secret, id));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/** The link: the API's one-click address (a GET there leads to the page that asks). */
export function unsubscribeUrl(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/$/, '')}/api/notification-endpoints/unsubscribe?token=${encodeURIComponent(token)}`;
}

/** The headers of an email to `endpointId` (RFC 2369 and RFC 8058). */
export function unsubscribeHeaders(
  deps: Pick<AppDeps, 'jwtSecret' | 'config'>,
  endpointId: string,
): Record<string, string> {
  const url = unsubscribeUrl(deps.config.appUrl, unsubscribeToken(deps.jwtSecret, endpointId));
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** Turns off the alerts to the token's address; answers the address. Idempotent. */
export async function unsubscribe(
  deps: Pick<AppDeps, 'db' | 'jwtSecret' | 'events'>,
  { token }: { token: string },
): Promise<{ value: string; unsubscribed: true }> {
  const id = endpointOfToken(deps.jwtSecret, token);
  if (!id) throw new NotFound(UNSUBSCRIBE_LINK_INVALID);
  const [row] = await deps.db
    .update(notificationEndpoints)
    .set({ isActive: false })
    .where(eq(notificationEndpoints.id, id))
    .returning({ userId: notificationEndpoints.userId, value: notificationEndpoints.value });
  if (!row) throw new NotFound(UNSUBSCRIBE_LINK_INVALID);
  void deps.events.publish({ type: 'endpoints', userId: row.userId });
  return { value: row.value, unsubscribed: true };
}
