/**
 * Email endpoint verification (docs/notifications.md): send the link, resend it at most once a minute,
 * and redeem a token exactly once within its 24 hours.
 */
import {
  CHECK_EMAIL_NOTICE,
  type ApiEndpointSendResult,
  type ApiVerifyResult,
} from '@app/common/api/endpoints';
import { and, eq } from 'drizzle-orm';
import type { SessionUser } from '../auth/require-user.ts';
import type { AppDeps } from '../deps.ts';
import { notificationEndpoints, users } from '../db/schema.ts';
import { Conflict, Invalid } from '../http/errors.ts';
import { MailPermanentError, MailTransientError } from '../mail/mailer.ts';
import { renderVerificationEmail } from '../mail/templates/verification.ts';
import { ENDPOINT_ERRORS, VerificationMailDeferred, VerificationMailRefused } from './errors.ts';
import { loadOwnEndpoint } from './own-endpoint.ts';
import { claimResend } from './resend-claim.ts';
import { resendCode } from './whatsapp-code.ts';
import { presentEndpoint, type EndpointRow } from './presenter.ts';
import {
  createVerificationToken,
  hashVerificationToken,
  isWellFormedToken,
  VERIFICATION_TTL_HOURS,
  verificationUrl,
} from './tokens.ts';

export type SendOutcome = 'sent' | 'transient' | 'permanent';

/** Sends the verification email for `endpoint`; a mail failure is logged and reported, not thrown. */
export async function sendVerificationEmail(
  deps: AppDeps,
  { user, endpoint, rawToken }: { user: SessionUser; endpoint: EndpointRow; rawToken: string },
): Promise<SendOutcome> {
  const email = renderVerificationEmail({
    address: endpoint.value,
    verifyUrl: verificationUrl(deps.config.appUrl, rawToken),
    validHours: VERIFICATION_TTL_HOURS,
    userName: user.name,
  });
  try {
    await deps.mailer.send({ to: endpoint.value, ...email });
    return 'sent';
  } catch (err) {
    const context = { endpointId: endpoint.id, userId: user.id, mailer: deps.mailer.kind };
    if (err instanceof MailTransientError) {
      deps.log.warn({ ...context, reason: err.reason }, 'verification email deferred');
      return 'transient';
    }
    if (err instanceof MailPermanentError) {
      deps.log.error({ ...context, reason: err.reason }, 'verification email refused');
      return 'permanent';
    }
    throw err;
  }
}

/**
 * A fresh link for a pending email endpoint (the previous one stops working). At most once
 * a minute per endpoint, counted from the last email (the add's included): 429 otherwise. A
 * WhatsApp number gets a fresh code instead, when WhatsApp is configured (endpoints/whatsapp-code.ts).
 */
export async function resendVerification(
  deps: AppDeps,
  { user, id }: { user: SessionUser; id: string },
): Promise<ApiEndpointSendResult> {
  const endpoint = await loadOwnEndpoint(deps.db, { userId: user.id, id });
  const codes = deps.whatsappCodes;
  if (endpoint.type === 'whatsapp' && codes) return resendCode({ ...deps, codes }, { user, endpoint });
  if (endpoint.type !== 'email') throw new Invalid(ENDPOINT_ERRORS.notEmail);
  if (endpoint.verificationStatus === 'verified') throw new Conflict(ENDPOINT_ERRORS.alreadyVerified);
  const now = new Date();
  const token = createVerificationToken(now);
  const claimed = await claimResend(deps.db, {
    userId: user.id,
    endpointId: endpoint.id,
    now,
    set: { tokenHash: token.hash, tokenExpiresAt: token.expiresAt, lastSentAt: now },
    tooSoon: ENDPOINT_ERRORS.resendTooSoon,
  });
  const outcome = await sendVerificationEmail(deps, { user, endpoint: claimed, rawToken: token.raw });
  if (outcome === 'transient') throw new VerificationMailDeferred();
  if (outcome === 'permanent') throw new VerificationMailRefused();
  return { ...presentEndpoint(claimed, user.email), email_sent: true, notice: CHECK_EMAIL_NOTICE };
}

/**
 * Redeems a verification token: the endpoint becomes verified, once. The token's hash stays on
 * the verified endpoint (its expiry is cleared), so the same link clicked again answers
 * `already_verified: true` instead of calling a good link invalid; a resend's new link replaces
 * it only while the endpoint is pending. Unknown or tampered tokens, links replaced by a resend
 * and expired ones are refused with the sentences of docs/notifications.md.
 */
export async function verifyEndpointToken(
  deps: AppDeps,
  { token, now = new Date() }: { token: string; now?: Date },
): Promise<ApiVerifyResult> {
  if (!isWellFormedToken(token)) throw new Invalid(ENDPOINT_ERRORS.invalidLink);
  const hash = hashVerificationToken(token);
  const t = notificationEndpoints;
  const [found] = await deps.db
    .select({ endpoint: t, accountEmail: users.email })
    .from(t)
    .innerJoin(users, eq(users.id, t.userId))
    .where(eq(t.tokenHash, hash));
  if (!found) throw new Invalid(ENDPOINT_ERRORS.invalidLink);
  const alreadyVerified = (): ApiVerifyResult => ({
    ...presentEndpoint(found.endpoint, found.accountEmail),
    verification_status: 'verified',
    already_verified: true,
  });
  if (found.endpoint.verificationStatus === 'verified') return alreadyVerified();
  const expiresAt = found.endpoint.tokenExpiresAt;
  if (!expiresAt || expiresAt.getTime() <= now.getTime()) throw new Invalid(ENDPOINT_ERRORS.expiredLink);
  const [verified] = await deps.db
    .update(t)
    .set({ verificationStatus: 'verified', verifiedAt: now, tokenExpiresAt: null })
    .where(and(eq(t.id, found.endpoint.id), eq(t.tokenHash, hash), eq(t.verificationStatus, 'pending')))
    .returning();
  // Another request redeemed the same token first: the endpoint is verified all the same.
  if (!verified) return alreadyVerified();
  void deps.events.publish({ type: 'endpoints', userId: verified.userId });
  return { ...presentEndpoint(verified, found.accountEmail), already_verified: false };
}
