/**
 * Forged and otherwise wrong access tokens (also crafted one by one in
 * test/server/auth/access-token.test.ts for REST): each differs from a valid token in one way only.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { TEST_JWT_SECRET } from '../../helpers/app.ts';

export const ISSUER = 'portfolio-guard';
export const AUDIENCE = 'portfolio-guard-api';

/** A JWT segment: `value` as base64url JSON. */
export const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token's claims, unchecked. */
export function decodePayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/**
 * Signs with the server's own secret and algorithm, for the session of the user's real token:
 * only `claims`/`options` make it wrong.
 */
export function signAsServer(
  user: { id: string; token: string },
  claims: { tv?: number; exp?: number; iat?: number; sid?: string | undefined } = {},
  options: jwt.SignOptions = {},
): string {
  return jwt.sign({ tv: 0, sid: decodePayload(user.token).sid, ...claims }, TEST_JWT_SECRET, {
    algorithm: 'HS256',
    ...(claims.exp === undefined ? { expiresIn: 900 } : {}),
    issuer: ISSUER,
    audience: AUDIENCE,
    subject: user.id,
    ...options,
  });
}

/** Every way a token can be wrong, as label → token, for a user whose valid token is `valid`. */
export function wrongTokens(user: {
  id: string;
  token: string;
  refreshToken: string;
}): Record<string, string> {
  const payload = decodePayload(user.token);
  const [header, , signature] = user.token.split('.');
  const now = Math.floor(Date.now() / 1000);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rs256 = jwt.sign({ tv: 0, sid: payload.sid }, privateKey, {
    algorithm: 'RS256',
    expiresIn: 900,
    issuer: ISSUER,
    audience: AUDIENCE,
    subject: user.id,
  });
  return {
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`,
    'alg none, signature kept': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.${signature}`,
    'RS256 (HS/RS confusion)': rs256,
    'HS512 with the server secret': signAsServer(user, {}, { algorithm: 'HS512' }),
    'another secret': jwt.sign({ tv: 0, sid: payload.sid }, 'another-secret-that-is-at-least-32-characters', {
      algorithm: 'HS256',
      expiresIn: 900,
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: user.id,
    }),
    'wrong audience': signAsServer(user, {}, { audience: 'another-api' }),
    'wrong issuer': signAsServer(user, {}, { issuer: 'someone-else' }),
    expired: signAsServer(user, { iat: now - 1000, exp: now - 1 }),
    'not yet valid': signAsServer(user, {}, { notBefore: 3600 }),
    'no expiry': jwt.sign({ tv: 0, sid: payload.sid, iat: now }, TEST_JWT_SECRET, {
      algorithm: 'HS256',
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: user.id,
    }),
    'issued in the future': signAsServer(user, { iat: now + 3600, exp: now + 4500 }),
    'subject not a UUID': signAsServer(user, {}, { subject: 'not-a-uuid' }),
    'tampered subject': `${header}.${b64({ ...payload, sub: '00000000-0000-4000-8000-000000000000' })}.${signature}`,
    'tampered expiry': `${header}.${b64({ ...payload, exp: 4_102_444_800 })}.${signature}`,
    'no token version': jwt.sign({ sid: payload.sid }, TEST_JWT_SECRET, {
      algorithm: 'HS256',
      expiresIn: 900,
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: user.id,
    }),
    'older token version': signAsServer(user, { tv: -1 }),
    'no session (signed before sessions)': jwt.sign({ tv: 0 }, TEST_JWT_SECRET, {
      algorithm: 'HS256',
      expiresIn: 900,
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: user.id,
    }),
    'unknown session': signAsServer(user, { sid: randomUUID() }),
    'unknown user': signAsServer(user, {}, { subject: '00000000-0000-4000-8000-000000000000' }),
    'refresh token as access token': user.refreshToken,
    'truncated signature': user.token.slice(0, -2),
    'not a JWT': 'not.a.jwt',
    empty: '',
  };
}
