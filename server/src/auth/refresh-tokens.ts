/**
 * Refresh tokens (docs/auth.md#auth-design): 32 random bytes, stored hashed, rotated on every use.
 * Presenting a rotated token again revokes its whole family, except once within a short grace
 * window so that two tabs refreshing at the same moment both stay signed in: that reuse gets one
 * sibling token; any further reuse is a thief's and ends the family.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { refreshTokens } from '../db/schema.ts';
import { Unauthorized } from '../http/errors.ts';

export const REFRESH_TOKEN_TTL_DAYS = 30;
export const REUSE_GRACE_MS = 10_000;

export function hashToken(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

/** Creates a refresh token in `familyId` (a new family when omitted); returns the raw token. */
export async function issueRefreshToken(
  db: Executor,
  { userId, familyId = randomUUID() }: { userId: string; familyId?: string },
) {
  const raw = randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(refreshTokens)
    .values({
      userId,
      familyId,
      tokenHash: hashToken(raw),
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000),
    })
    .returning({ id: refreshTokens.id });
  return { raw, id: row!.id, familyId };
}

const expired = () => new Unauthorized('Your session has expired. Please sign in again.');

/** A sign-in's refresh-token family: the session its access tokens carry (claim `sid`). */
export interface SessionRef {
  userId: string;
  familyId: string;
}

/**
 * Rotates `raw`: returns the user, the session and a new raw token, or throws Unauthorized.
 * A reuse revokes the family and calls `onRevoked` (after the commit) before throwing.
 */
export async function rotateRefreshToken(
  db: Database,
  {
    raw,
    now = new Date(),
    onRevoked,
  }: { raw: string; now?: Date; onRevoked?: (session: SessionRef) => unknown },
) {
  return db
    .transaction(async (tx) => {
      const [token] = await tx
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(raw)))
        .for('update');
      if (!token || token.revokedAt || token.expiresAt <= now) throw expired();
      if (token.rotatedAt) {
        if (token.graceSiblingId || now.getTime() - token.rotatedAt.getTime() > REUSE_GRACE_MS) {
          await revokeFamily(tx, { familyId: token.familyId, now });
          return { reused: true as const, userId: token.userId, familyId: token.familyId };
        }
        // A concurrent refresh from another tab: give it its own token in the same family, once.
        const next = await issueRefreshToken(tx, { userId: token.userId, familyId: token.familyId });
        await tx.update(refreshTokens).set({ graceSiblingId: next.id }).where(eq(refreshTokens.id, token.id));
        return {
          reused: false as const,
          userId: token.userId,
          familyId: token.familyId,
          refreshToken: next.raw,
        };
      }
      const next = await issueRefreshToken(tx, { userId: token.userId, familyId: token.familyId });
      await tx
        .update(refreshTokens)
        .set({ rotatedAt: now, replacedBy: next.id })
        .where(eq(refreshTokens.id, token.id));
      return {
        reused: false as const,
        userId: token.userId,
        familyId: token.familyId,
        refreshToken: next.raw,
      };
    })
    .then(async (result) => {
      // The family's revocation must commit before we answer 401, and be announced.
      if (result.reused) {
        await onRevoked?.({ userId: result.userId, familyId: result.familyId });
        throw new Unauthorized('This session was signed out for your security. Please sign in again.');
      }
      return result;
    });
}

export async function revokeFamily(
  db: Executor,
  { familyId, now = new Date() }: { familyId: string; now?: Date },
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes the family of `raw` (logout of this session) and returns it; unknown tokens are ignored. */
export async function revokeSession(db: Database, raw: string): Promise<SessionRef | undefined> {
  const [token] = await db
    .select({ userId: refreshTokens.userId, familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(raw)));
  if (!token) return undefined;
  await revokeFamily(db, { familyId: token.familyId });
  return token;
}

export async function revokeAllForUser(db: Executor, userId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
