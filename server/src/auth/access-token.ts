import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { Unauthorized } from '../http/errors.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const TOKEN_ISSUER = 'portfolio-guard';
export const TOKEN_AUDIENCE = 'portfolio-guard-api';
/** How far ahead of this server's clock a token's issue time may be (another instance's clock). */
export const CLOCK_SKEW_SECONDS = 30;

export interface AccessClaims {
  sub: string;
  /** The user's token_version when issued; logout-all bumps it so older tokens fail. */
  tv: number;
  /** The session: the refresh-token family of the sign-in; logout ends it (session-users.ts). */
  sid: string;
  exp: number;
}

/**
 * The HMAC key for a secret, built once. Given a string, jsonwebtoken first tries to parse it
 * as a PEM public key on every call, which costs ~60× the HS256 check itself.
 */
const keys = new Map<string, KeyObject>();
function hmacKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

/** Signs a 15-minute HS256 access token for the user's session (its refresh-token family). */
export function signAccessToken(
  { user, sessionId }: { user: { id: string; tokenVersion: number }; sessionId: string },
  secret: string,
): string {
  return jwt.sign({ tv: user.tokenVersion, sid: sessionId }, hmacKey(secret), {
    algorithm: 'HS256',
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    subject: user.id,
  });
}

/**
 * The claims a token must carry: jsonwebtoken checks `exp` only when present, and a subject
 * that is not a UUID would reach the database as one.
 */
const accessClaims = z.object({
  sub: z.uuid(),
  tv: z.number().int(),
  sid: z.uuid(),
  exp: z.number(),
  iat: z.number(),
});

/**
 * Verifies signature (HS256 only), expiry, issuer and audience, and that the token has an expiry,
 * an issue time not in the future, a UUID subject and a session; throws Unauthorized. Tokens
 * signed before sessions existed have none: refused, the client refreshes and gets one.
 */
export function verifyAccessToken(token: string, secret: string): AccessClaims {
  try {
    const verified = jwt.verify(token, hmacKey(secret), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
    });
    const claims = accessClaims.safeParse(verified);
    if (!claims.success || claims.data.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) {
      throw new Unauthorized('Invalid token');
    }
    const { sub, tv, sid, exp } = claims.data;
    return { sub, tv, sid, exp };
  } catch (err) {
    if (err instanceof Unauthorized) throw err;
    if (err instanceof jwt.TokenExpiredError)
      throw new Unauthorized('Your session has expired. Please sign in again.');
    throw new Unauthorized('Invalid token');
  }
}
