/**
 * Notification endpoints (docs/notifications.md): list, add, delete. Email endpoints start pending and
 * get a verification email; WhatsApp numbers (Advanced tier) start pending and get a six-digit code
 * on WhatsApp when WhatsApp is configured (else they are stored and nothing is sent).
 */
import { randomUUID } from 'node:crypto';
import {
  CHECK_EMAIL_NOTICE,
  ENDPOINT_MESSAGES,
  normalizeEndpointValue,
  type AddValueEndpointInput,
  type ApiEndpointSendResult,
  type ApiNotificationEndpoint,
} from '@app/common/api/endpoints';
import { and, asc, eq } from 'drizzle-orm';
import type { SessionUser } from '../auth/require-user.ts';
import type { AppDeps } from '../deps.ts';
import { notificationEndpoints } from '../db/schema.ts';
import { Conflict, Forbidden } from '../http/errors.ts';
import { ENDPOINT_ERRORS, NOT_SENT_NOTICE } from './errors.ts';
import { loadOwnEndpoint } from './own-endpoint.ts';
import { isAccountEmail, presentEndpoint } from './presenter.ts';
import { createVerificationToken } from './tokens.ts';
import { sendVerificationEmail } from './verification.ts';
import { addedNumberResult, codeColumns, issueCode } from './whatsapp-code.ts';

/** The user's endpoints, oldest first (the account email, created at sign-in, leads). */
export async function listEndpoints(
  deps: AppDeps,
  { user }: { user: SessionUser },
): Promise<ApiNotificationEndpoint[]> {
  const rows = await deps.db
    .select()
    .from(notificationEndpoints)
    .where(eq(notificationEndpoints.userId, user.id))
    .orderBy(asc(notificationEndpoints.createdAt), asc(notificationEndpoints.id));
  return rows.map((row) => presentEndpoint(row, user.email));
}

/** An email or a WhatsApp number (Telegram: channels/telegram/link.ts; a push subscription: channels/webpush/subscriptions.ts). */
export type AddEndpointCommand = AddValueEndpointInput & { user: SessionUser };

/**
 * Stores a new email or WhatsApp endpoint (a push subscription: channels/webpush/subscriptions.ts) and, for an email, sends its verification email. A failed send does
 * not undo the add: the answer says `email_sent: false` with a notice, and Resend works later.
 */
export async function addEndpoint(
  deps: AppDeps,
  command: AddEndpointCommand,
): Promise<ApiEndpointSendResult> {
  const { user, type } = command;
  if (type === 'whatsapp' && user.subscriptionTier !== 'advanced') {
    throw new Forbidden(ENDPOINT_ERRORS.whatsappTier);
  }
  const { value, key } = normalizeEndpointValue(type, command.value);
  const now = new Date();
  const token = type === 'email' ? createVerificationToken(now) : undefined;
  const codes = type === 'whatsapp' ? deps.whatsappCodes : undefined;
  const id = randomUUID();
  const code = codes ? issueCode(deps.jwtSecret, id, now) : undefined;
  const [endpoint] = await deps.db
    .insert(notificationEndpoints)
    .values({
      id,
      userId: user.id,
      type,
      value,
      valueKey: key,
      tokenHash: token?.hash ?? null,
      tokenExpiresAt: token?.expiresAt ?? null,
      lastSentAt: token ? now : null,
      ...(code ? codeColumns(code, now) : {}),
    })
    .onConflictDoNothing({
      target: [notificationEndpoints.userId, notificationEndpoints.type, notificationEndpoints.valueKey],
    })
    .returning();
  if (!endpoint) throw new Conflict(ENDPOINT_MESSAGES.duplicate);
  void deps.events.publish({ type: 'endpoints', userId: user.id });
  const presented = presentEndpoint(endpoint, user.email);
  if (codes && code) {
    return addedNumberResult(presented, await codes.send(endpoint, code.raw));
  }
  if (!token) return { ...presented, email_sent: false, notice: null };
  const outcome = await sendVerificationEmail(deps, { user, endpoint, rawToken: token.raw });
  return {
    ...presented,
    email_sent: outcome === 'sent',
    notice: outcome === 'sent' ? CHECK_EMAIL_NOTICE : NOT_SENT_NOTICE[outcome],
  };
}

/** Deletes the user's endpoint `id`; the account's own email cannot be deleted (403). */
export async function deleteEndpoint(
  deps: AppDeps,
  { user, id }: { user: SessionUser; id: string },
): Promise<{ id: string; deleted: true }> {
  const endpoint = await loadOwnEndpoint(deps.db, { userId: user.id, id });
  if (isAccountEmail(endpoint, user.email)) throw new Forbidden(ENDPOINT_ERRORS.accountEmail);
  await deps.db
    .delete(notificationEndpoints)
    .where(and(eq(notificationEndpoints.id, endpoint.id), eq(notificationEndpoints.userId, user.id)));
  void deps.events.publish({ type: 'endpoints', userId: user.id });
  return { id: endpoint.id, deleted: true };
}
