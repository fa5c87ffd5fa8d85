/**
 * Verifying a WhatsApp number (docs/notifications.md#whatsapp): a six-digit code goes out in the
 * code template; only an HMAC of it (keyed by the server's secret and bound to the endpoint row)
 * is stored in `token_hash`. It works 10 minutes; 5 wrong codes and a new one is needed (the count
 * is `meta.code_tries`); a new code at most once a minute, counted from the last. Each step is one
 * conditional update, so two requests at once cannot both pass a limit.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { ApiEndpointSendResult, ApiNotificationEndpoint } from '@app/common/api/endpoints';
import {
  CODE_MAX_TRIES,
  CODE_MESSAGES,
  CODE_NOT_SENT_NOTICE,
  CODE_TTL_MINUTES,
  codeSentNotice,
  wrongCodeMessage,
} from '@app/common/endpoints/whatsapp-code';
import { and, eq, sql } from 'drizzle-orm';
import type { SessionUser } from '../auth/require-user.ts';
import type { AppDeps } from '../deps.ts';
import { notificationEndpoints } from '../db/schema.ts';
import { AppError, Conflict, Invalid } from '../http/errors.ts';
import { ENDPOINT_ERRORS } from './errors.ts';
import { loadOwnEndpoint } from './own-endpoint.ts';
import { claimResend } from './resend-claim.ts';
import { presentEndpoint, type EndpointRow } from './presenter.ts';

type CodeDeps = Pick<AppDeps, 'db' | 'log' | 'jwtSecret' | 'events'> & { codes: CodeMessages };

export interface IssuedCode {
  raw: string;
  hash: string;
  expiresAt: Date;
}

/** HMAC-SHA256 of the code for this endpoint: unique per row, useless without the server's key. */
export function hashCode(secret: string, endpointId: string, code: string): string {
  return createHmac('sha256', secret).update(`whatsapp-code:${endpointId}:${code}`).digest('hex');
}

export function issueCode(secret: string, endpointId: string, now: Date): IssuedCode {
  const raw = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return {
    raw,
    hash: hashCode(secret, endpointId, raw),
    expiresAt: new Date(now.getTime() + CODE_TTL_MINUTES * 60_000),
  };
}

/** The endpoint columns of a freshly issued code (tries back to 0). */
export const codeColumns = (code: IssuedCode, now: Date) => ({
  tokenHash: code.hash,
  tokenExpiresAt: code.expiresAt,
  lastSentAt: now,
  meta: { code_tries: 0 },
});

export type CodeSendOutcome = 'sent' | 'transient' | 'permanent';

/**
 * What sends a number its code on WhatsApp (channels/whatsapp/code-message.ts), given to the
 * endpoints as a dependency when WhatsApp is configured (endpoints come before the channels).
 */
export interface CodeMessages {
  /** Sends `raw` to the endpoint's number; a refusal is logged and reported, not thrown. */
  send(endpoint: Pick<EndpointRow, 'id' | 'value' | 'userId'>, raw: string): Promise<CodeSendOutcome>;
}

/** The add's answer for a new number: the endpoint, and whether its code went out. */
export function addedNumberResult(
  presented: ApiNotificationEndpoint,
  outcome: CodeSendOutcome,
): ApiEndpointSendResult {
  return {
    ...presented,
    email_sent: false,
    notice: outcome === 'sent' ? codeSentNotice(presented.value) : CODE_NOT_SENT_NOTICE[outcome],
  };
}

/** A fresh code for a pending number (the previous one stops working); 429 within a minute of the last. */
export async function resendCode(
  deps: CodeDeps,
  { user, endpoint, now = new Date() }: { user: SessionUser; endpoint: EndpointRow; now?: Date },
): Promise<ApiEndpointSendResult> {
  if (endpoint.verificationStatus === 'verified') throw new Conflict(ENDPOINT_ERRORS.alreadyVerified);
  const code = issueCode(deps.jwtSecret, endpoint.id, now);
  const claimed = await claimResend(deps.db, {
    userId: user.id,
    endpointId: endpoint.id,
    now,
    set: codeColumns(code, now),
    tooSoon: CODE_MESSAGES.resendTooSoon,
  });
  const outcome = await deps.codes.send(claimed, code.raw);
  if (outcome === 'transient') throw new AppError(CODE_MESSAGES.deferred, 503, true, { 'Retry-After': '60' });
  if (outcome === 'permanent') throw new AppError(CODE_MESSAGES.refused, 502, true);
  return addedNumberResult(presentEndpoint(claimed, user.email), 'sent');
}

const triesOf = (endpoint: Pick<EndpointRow, 'meta'>) => Number(endpoint.meta?.code_tries ?? 0) || 0;

/**
 * Checks a code typed in Settings: right → the number is verified (and the code spent); wrong →
 * 400 with the tries left; expired, or 5 wrong already → 400 saying a new code is needed.
 */
export async function verifyCode(
  deps: CodeDeps,
  { user, id, code, now = new Date() }: { user: SessionUser; id: string; code: string; now?: Date },
): Promise<ApiNotificationEndpoint> {
  const endpoint = await loadOwnEndpoint(deps.db, { userId: user.id, id });
  if (endpoint.type !== 'whatsapp') throw new Invalid(CODE_MESSAGES.notWhatsApp);
  if (endpoint.verificationStatus === 'verified') throw new Conflict(ENDPOINT_ERRORS.alreadyVerified);
  if (!endpoint.tokenHash) throw new Invalid(CODE_MESSAGES.noCode);
  if (triesOf(endpoint) >= CODE_MAX_TRIES) throw new Invalid(CODE_MESSAGES.tooManyTries);
  if (!endpoint.tokenExpiresAt || endpoint.tokenExpiresAt.getTime() <= now.getTime())
    throw new Invalid(CODE_MESSAGES.expired);
  const t = notificationEndpoints;
  const tries = sql`coalesce((${t.meta} ->> 'code_tries')::int, 0)`;
  // Only the code this check read, and only while tries are left: a resend or a fifth wrong try in between wins.
  const current = and(
    eq(t.id, endpoint.id),
    eq(t.userId, user.id),
    eq(t.tokenHash, endpoint.tokenHash),
    eq(t.verificationStatus, 'pending'),
    sql`${tries} < ${CODE_MAX_TRIES}`,
  );
  const given = Buffer.from(hashCode(deps.jwtSecret, endpoint.id, code), 'hex');
  const stored = Buffer.from(endpoint.tokenHash, 'hex');
  if (given.length === stored.length && timingSafeEqual(given, stored)) {
    const [verified] = await deps.db
      .update(t)
      .set({
        verificationStatus: 'verified',
        verifiedAt: now,
        tokenHash: null,
        tokenExpiresAt: null,
        meta: null,
      })
      .where(current)
      .returning();
    if (!verified) return verifyCode(deps, { user, id, code, now });
    void deps.events.publish({ type: 'endpoints', userId: user.id });
    return presentEndpoint(verified, user.email);
  }
  const [counted] = await deps.db
    .update(t)
    .set({ meta: sql`coalesce(${t.meta}, '{}'::jsonb) || jsonb_build_object('code_tries', ${tries} + 1)` })
    .where(current)
    .returning({ meta: t.meta });
  if (!counted) return verifyCode(deps, { user, id, code, now });
  throw new Invalid(wrongCodeMessage(CODE_MAX_TRIES - triesOf(counted)));
}
