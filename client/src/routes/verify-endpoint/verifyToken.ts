import type { ApiVerifyResult } from '@app/common/api/endpoints';
import { ApiError, api } from '../../api/client.ts';

const CALL_FAILED = 'Verification failed. The link may be invalid or expired.';

/** The result of following a verification link ('already': clicked before, nothing more to do). */
export type VerifyOutcome =
  { status: 'success' } | { status: 'already' } | { status: 'error'; message: string };

const attempts = new Map<string, Promise<VerifyOutcome>>();

/**
 * Calls `GET /api/notification-endpoints/verify?token=` once per token per page load (a
 * verification token is single-use, so a re-render must not spend it twice) and maps the
 * answer to the texts of docs/notifications.md (Verify): the server's error, 'Verification failed.', or the
 * call-failure text.
 */
export function verifyEndpointToken(token: string): Promise<VerifyOutcome> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = api
      .get<ApiVerifyResult>('/notification-endpoints/verify', { query: { token }, noRefresh: true })
      .then(
        (result): VerifyOutcome => ({ status: result?.already_verified ? 'already' : 'success' }),
        (err: unknown): VerifyOutcome => ({ status: 'error', message: failureMessage(err) }),
      );
    attempts.set(token, attempt);
  }
  return attempt;
}

function failureMessage(err: unknown): string {
  if (!(err instanceof ApiError) || err.status === 0 || err.status >= 500) return CALL_FAILED;
  return err.fromServer ? err.message : 'Verification failed.';
}
