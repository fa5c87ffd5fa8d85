import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Unauthorized } from '../http/errors.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const TOKEN_ISSUER = 'portfolio-guard';
export const TOKEN_AUDIENCE = 'portfolio-guard-api';

export interface AccessClaims {
  sub: string;
  /** The user's token_version when issued; logout-all bumps it so older tokens fail. */
  tv: number;
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

/** Signs a 15-minute HS256 access token for the user. */
export function signAccessToken(user: { id: string; tokenVersion: number }, secret: string): string {
  return jwt.sign({ tv: user.tokenVersion }, hmacKey(secret), {
    algorithm: 'HS256',
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
    subject: user.id,
  });
}

/** Verifies signature (HS256 only), expiry, issuer and audience; throws Unauthorized. */
export function verifyAccessToken(token: string, secret: string): AccessClaims {
  try {
    const claims = jwt.verify(token, hmacKey(secret), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
    });
    if (typeof claims === 'string' || typeof claims.sub !== 'string' || typeof claims.tv !== 'number') {
      throw new Unauthorized('Invalid token');
    }
    return { sub: claims.sub, tv: claims.tv, exp: claims.exp ?? 0 };
  } catch (err) {
    if (err instanceof Unauthorized) throw err;
    if (err instanceof jwt.TokenExpiredError)
      throw new Unauthorized('Your session has expired. Please sign in again.');
    throw new Unauthorized('Invalid token');
  }
}
