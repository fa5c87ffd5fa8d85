/**
 * Email endpoint verification (spec §4): send the link, resend it at most once a minute,
 * and redeem a token exactly once within its 24 hours.
 */
import {
  CHECK_EMAIL_NOTICE,
  type ApiEndpointSendResult,
  type ApiNotificationEndpoint,
} from '@app/common/api/endpoints';
import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { SessionUser } from '../auth/require-user.ts';
import type { AppDeps } from '../deps.ts';
import { notificationEndpoints, users } from '../db/schema.ts';
import { Conflict, Invalid, TooManyRequests } from '../http/errors.ts';
import { MailPermanentError, MailTransientError } from '../mail/mailer.ts';
import { renderVerificationEmail } from '../mail/templates/verification.ts';
import { ENDPOINT_ERRORS, VerificationMailDeferred, VerificationMailRefused } from './errors.ts';
import { loadOwnEndpoint } from './own-endpoint.ts';
import { presentEndpoint, type EndpointRow } from './presenter.ts';
import {
  createVerificationToken,
  hashVerificationToken,
  isWellFormedToken,
  RESEND_INTERVAL_MS,
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
 * a minute per endpoint, counted from the last email (the add's included): 429 otherwise.
 */
export async function resendVerification(
  deps: AppDeps,
  { user, id }: { user: SessionUser; id: string },
): Promise<ApiEndpointSendResult> {
  const endpoint = await loadOwnEndpoint(deps.db, { userId: user.id, id });
  if (endpoint.type !== 'email') throw new Invalid(ENDPOINT_ERRORS.notEmail);
  if (endpoint.verificationStatus === 'verified') throw new Conflict(ENDPOINT_ERRORS.alreadyVerified);
  const now = new Date();
  const token = createVerificationToken(now);
  const t = notificationEndpoints;
  // The claim is one conditional update, so two instances cannot both send within the minute.
  const [claimed] = await deps.db
    .update(t)
    .set({ tokenHash: token.hash, tokenExpiresAt: token.expiresAt, lastSentAt: now })
    .where(
      and(
        eq(t.id, endpoint.id),
        eq(t.userId, user.id),
        eq(t.verificationStatus, 'pending'),
        or(isNull(t.lastSentAt), lte(t.lastSentAt, new Date(now.getTime() - RESEND_INTERVAL_MS))),
      ),
    )
    .returning();
  if (!claimed) {
    const current = await loadOwnEndpoint(deps.db, { userId: user.id, id });
    if (current.verificationStatus === 'verified') throw new Conflict(ENDPOINT_ERRORS.alreadyVerified);
    const waitMs = (current.lastSentAt?.getTime() ?? 0) + RESEND_INTERVAL_MS - now.getTime();
    throw new TooManyRequests(Math.min(60, Math.max(1, waitMs / 1000)), ENDPOINT_ERRORS.resendTooSoon);
  }
  const outcome = await sendVerificationEmail(deps, { user, endpoint: claimed, rawToken: token.raw });
  if (outcome === 'transient') throw new VerificationMailDeferred();
  if (outcome === 'permanent') throw new VerificationMailRefused();
  return { ...presentEndpoint(claimed, user.email), email_sent: true, notice: CHECK_EMAIL_NOTICE };
}

/**
 * Redeems a verification token: the endpoint becomes verified and the token is cleared.
 * Unknown, tampered or used tokens and expired ones are refused with the spec's sentences.
 */
export async function verifyEndpointToken(
  deps: AppDeps,
  { token, now = new Date() }: { token: string; now?: Date },
): Promise<ApiNotificationEndpoint> {
  if (!isWellFormedToken(token)) throw new Invalid(ENDPOINT_ERRORS.invalidLink);
  const hash = hashVerificationToken(token);
  const t = notificationEndpoints;
  const [found] = await deps.db
    .select({ endpoint: t, accountEmail: users.email })
    .from(t)
    .innerJoin(users, eq(users.id, t.userId))
    .where(eq(t.tokenHash, hash));
  if (!found) throw new Invalid(ENDPOINT_ERRORS.invalidLink);
  const expiresAt = found.endpoint.tokenExpiresAt;
  if (!expiresAt || expiresAt.getTime() <= now.getTime()) throw new Invalid(ENDPOINT_ERRORS.expiredLink);
  const [verified] = await deps.db
    .update(t)
    .set({ verificationStatus: 'verified', verifiedAt: now, tokenHash: null, tokenExpiresAt: null })
    .where(and(eq(t.id, found.endpoint.id), eq(t.tokenHash, hash)))
    .returning();
  // Another request redeemed the same token first.
  if (!verified) throw new Invalid(ENDPOINT_ERRORS.invalidLink);
  void deps.events.publish({ type: 'endpoints', userId: verified.userId });
  return presentEndpoint(verified, found.accountEmail);
}
