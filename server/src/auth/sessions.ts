/**
 * Sessions: a sign-in is one refresh-token family, and its access tokens carry it (claim `sid`).
 * Starting one, renewing its access token, ending it (logout) or ending all of a user's
 * (logout-all). Ending publishes a `sessions` change after the commit, so every instance ends the
 * session's access tokens and closes its sockets.
 */
import type { AppDeps } from '../deps.ts';
import { Unauthorized } from '../http/errors.ts';
import { bumpTokenVersion, findUser } from '../users/service.ts';
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

/**
 * Announces an ended session (or all of a user's) after its revocation committed. Waited for
 * (briefly) so the change feed has it before the answer leaves: another instance asked next
 * finds it published (session-users.ts).
 */
const announceEnded = (deps: Pick<AppDeps, 'events'>, change: { userId: string; sessionId?: string }) =>
  settlesWithin(deps.events.publish({ type: 'sessions', ...change }), PUBLISH_WAIT_MS);

const announceSession = (deps: Pick<AppDeps, 'events'>) => (ended: SessionRef) =>
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
  deps: Pick<AppDeps, 'db' | 'jwtSecret' | 'events'>,
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
  deps: Pick<AppDeps, 'db' | 'events'>,
  { refreshToken }: { refreshToken: string },
): Promise<void> {
  const ended = await revokeSession(deps.db, refreshToken);
  if (ended) await announceSession(deps)(ended);
}

/** Logout-all: every access token of the user stops working (token version) and every session ends. */
export async function endAllSessions(
  deps: Pick<AppDeps, 'db' | 'events'>,
  { userId }: { userId: string },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await bumpTokenVersion(tx, userId);
    await revokeAllForUser(tx, userId);
  });
  await announceEnded(deps, { userId });
}
