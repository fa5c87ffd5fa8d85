/**
 * Email verification tokens: 32 random bytes (base64url) in the link, only their SHA-256
 * stored; valid 24 hours, single use, bound to one endpoint row.
 */
import { createHash, randomBytes } from 'node:crypto';

export const VERIFICATION_TTL_HOURS = 24;
/** A new verification email for the same endpoint at most this often. */
export const RESEND_INTERVAL_MS = 60_000;

/** 32 bytes in base64url are 43 characters of [A-Za-z0-9_-]. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface VerificationToken {
  raw: string;
  hash: string;
  expiresAt: Date;
}

export function hashVerificationToken(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

export function createVerificationToken(now: Date = new Date()): VerificationToken {
  const raw = randomBytes(32).toString('base64url');
  return {
    raw,
    hash: hashVerificationToken(raw),
    expiresAt: new Date(now.getTime() + VERIFICATION_TTL_HOURS * 3_600_000),
  };
}

/** Whether `raw` could be a token at all (anything else is refused without a lookup). */
export function isWellFormedToken(raw: string): boolean {
  return TOKEN_PATTERN.test(raw);
}

/** The link in the email: always the configured APP_URL, never the request's Host. */
export function verificationUrl(appUrl: string, raw: string): string {
  return `${appUrl}/verify-endpoint?token=${encodeURIComponent(raw)}`;
}
