import { ApiError, api } from '../../api/client.ts';

const CALL_FAILED = 'Verification failed. The link may be invalid or expired.';

/** The result of following a verification link. */
export type VerifyOutcome = { status: 'success' } | { status: 'error'; message: string };

const attempts = new Map<string, Promise<VerifyOutcome>>();

/**
 * Calls `GET /api/notification-endpoints/verify?token=` once per token per page load (a
 * verification token is single-use, so a re-render must not spend it twice) and maps the
 * answer to the texts of spec §8: the server's error, 'Verification failed.', or the
 * call-failure text.
 */
export function verifyEndpointToken(token: string): Promise<VerifyOutcome> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = api.get('/notification-endpoints/verify', { query: { token }, noRefresh: true }).then(
      (): VerifyOutcome => ({ status: 'success' }),
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
