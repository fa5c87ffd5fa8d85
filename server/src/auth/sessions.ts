/**
 * Sessions: a sign-in is one refresh-token family, and its access tokens carry it (claim `sid`).
 * Starting one, renewing its access token, ending it (logout) or ending all of a user's
 * (logout-all). Ending publishes a `sessions` change after the commit, so every instance ends the
 * session's access tokens and closes its sockets.
 */
import type { AppDeps } from '../deps.ts';
import { Unauthorized } from '../http/errors.ts';
import { bumpTokenVersion, findUser } from '../users/service.ts';
import { redisWhenReady } from '../util/redis-ready.ts';
import { settlesWithin } from '../util/settles-within.ts';
import { signAccessToken } from './access-token.ts';
import {
  issueRefreshToken,
  revokeAllForUser,
  revokeSession,
  rotateRefreshToken,
  type SessionRef,
} from './refresh-tokens.ts';
import type { SessionUser } from './session-users.ts';

/** How long ending a session waits for Redis to take its `sessions` change (it never fails for it). */
const PUBLISH_WAIT_MS = 1000;

/** A session's two tokens, as the client stores them. */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

/** What announcing an ended session needs. */
type AnnounceDeps = Pick<AppDeps, 'events' | 'requestRedis'>;

/**
 * Announces an ended session (or all of a user's) after its revocation committed. Waited for
 * (briefly) so the change feed has it before the answer leaves: another instance asked next
 * finds it published (session-users.ts). Not waited for while Redis does not answer this
 * instance's requests (util/redis-ready.ts): it would not take the announcement sooner.
 */
const announceEnded = async (deps: AnnounceDeps, change: { userId: string; sessionId?: string }) => {
  const published = deps.events.publish({ type: 'sessions', ...change });
  if (!deps.requestRedis || redisWhenReady(deps.requestRedis))
    await settlesWithin(published, PUBLISH_WAIT_MS);
};

const announceSession = (deps: AnnounceDeps) => (ended: SessionRef) =>
  announceEnded(deps, { userId: ended.userId, sessionId: ended.familyId });

/** Starts a session for a user who just signed in: a new refresh-token family. */
export async function startSession(
  deps: Pick<AppDeps, 'db' | 'jwtSecret'>,
  { user }: { user: SessionUser },
): Promise<SessionTokens> {
  const refresh = await issueRefreshToken(deps.db, { userId: user.id });
  return {
    accessToken: signAccessToken({ user, sessionId: refresh.familyId }, deps.jwtSecret),
    refreshToken: refresh.raw,
  };
}

/**
 * Rotates the refresh token and signs a new access token in the same session (logout still ends
 * every access token of this sign-in). A reused token ends its session (announced) and throws
 * Unauthorized, as does a user that no longer exists.
 */
export async function renewSession(
  deps: Pick<AppDeps, 'db' | 'jwtSecret'> & AnnounceDeps,
  { refreshToken }: { refreshToken: string },
): Promise<SessionTokens> {
  const rotated = await rotateRefreshToken(deps.db, { raw: refreshToken, onRevoked: announceSession(deps) });
  const user = await findUser(deps.db, { id: rotated.userId });
  if (!user) throw new Unauthorized();
  return {
    accessToken: signAccessToken({ user, sessionId: rotated.familyId }, deps.jwtSecret),
    refreshToken: rotated.refreshToken,
  };
}

/** Logout: ends the session of `refreshToken`; an unknown token ends nothing. */
export async function endSession(
  deps: Pick<AppDeps, 'db'> & AnnounceDeps,
  { refreshToken }: { refreshToken: string },
): Promise<void> {
  const ended = await revokeSession(deps.db, refreshToken);
  if (ended) await announceSession(deps)(ended);
}

/** Logout-all: every access token of the user stops working (token version) and every session ends. */
export async function endAllSessions(
  deps: Pick<AppDeps, 'db'> & AnnounceDeps,
  { userId }: { userId: string },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await bumpTokenVersion(tx, userId);
    await revokeAllForUser(tx, userId);
  });
  await announceEnded(deps, { userId });
}

/**
 * A deleted user's sessions: their refresh tokens went with the user row, so only the announcement
 * is left to make (every instance drops the cached sessions and closes the user's sockets).
 */
export async function announceUserGone(deps: AnnounceDeps, { userId }: { userId: string }): Promise<void> {
  await announceEnded(deps, { userId });
}
