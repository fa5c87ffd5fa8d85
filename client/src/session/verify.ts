import { ApiError, api } from '../api/client.ts';
import { getAccessToken } from '../api/tokens.ts';
import type { SessionUser } from './types.ts';

/**
 * Checks the stored access token with `GET /api/auth/verify` (docs/auth.md#in-the-browser).
 * On a 401 the API client tries one refresh, stores both new tokens and asks again.
 * Resolves the user, or null when there is no token or the session could not be renewed
 * (the tokens are then cleared). Other failures (network, server) reject with an ApiError.
 */
export async function verifyStoredSession(): Promise<SessionUser | null> {
  if (!getAccessToken()) return null;
  try {
    const data = await api.get<{ user?: SessionUser }>('/auth/verify', { onSessionExpired: 'throw' });
    if (!data?.user) throw new ApiError(500, 'The server did not return your profile.');
    return data.user;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}
