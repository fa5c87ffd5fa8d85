import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api, errorMessage, setSessionExpiredHandler } from '../api/client.ts';
import {
  clearTokens,
  getAccessToken,
  getRefreshToken,
  onTokensChangedElsewhere,
  storeTokens,
} from '../api/tokens.ts';
import { SessionContext, type SessionValue } from './context.ts';
import { loginAfterExpiry } from './redirect.ts';
import type { SessionState, SessionUser, SignInResult } from './types.ts';
import { verifyStoredSession } from './verify.ts';

const CHECK_FAILED = 'We could not reach Portfolio Guard to check your sign-in.';

/**
 * Owns the sign-in state (docs/auth.md#in-the-browser): `loading` while a stored token is verified, then
 * `authenticated` or `anonymous`. Keeps tabs in step through localStorage `storage` events:
 * tokens cleared elsewhere sign this tab out; tokens stored elsewhere (a sign-in or a refresh)
 * are verified again so this tab knows who is signed in.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [state, setState] = useState<SessionState>(() =>
    getAccessToken() ? { status: 'loading' } : { status: 'anonymous' },
  );
  const [signingOut, setSigningOut] = useState(false);
  const checkRun = useRef(0);

  /** Verifies the stored token; only the latest run may change the state. */
  const check = useCallback((onNetworkFailure: 'report' | 'keep') => {
    const run = ++checkRun.current;
    verifyStoredSession().then(
      (user) => {
        if (run === checkRun.current)
          setState(user ? { status: 'authenticated', user } : { status: 'anonymous' });
      },
      (err: unknown) => {
        console.warn('Session check failed', err);
        if (run !== checkRun.current || onNetworkFailure === 'keep') return;
        setState({ status: 'loading', checkError: errorMessage(err, CHECK_FAILED) });
      },
    );
  }, []);

  useEffect(() => {
    if (getAccessToken()) check('report');
  }, [check]);

  useEffect(
    () =>
      onTokensChangedElsewhere((token) => {
        if (token) {
          check('keep');
          return;
        }
        checkRun.current++;
        setState({ status: 'anonymous', signedOutElsewhere: true });
      }),
    [check],
  );

  useEffect(() => {
    setSessionExpiredHandler(() => {
      checkRun.current++;
      const target = loginAfterExpiry(window.location.pathname, window.location.search);
      if (target === null) {
        setState({ status: 'anonymous' });
        return;
      }
      // The router applies navigations as transitions; the state change must join the same
      // transition, or the guard would render once with the old path and redirect elsewhere.
      startTransition(() => {
        navigate(target, { replace: true });
        setState({ status: 'anonymous' });
      });
    });
  }, [navigate]);

  const signIn = useCallback((result: SignInResult) => {
    storeTokens(result.token, result.refresh_token);
    checkRun.current++;
    setState({ status: 'authenticated', user: result.user });
  }, []);

  const adoptUser = useCallback((user: SessionUser) => {
    checkRun.current++;
    setState({ status: 'authenticated', user });
  }, []);

  const signOut = useCallback(async () => {
    setSigningOut(true);
    try {
      await api.post('/auth/logout', { refresh_token: getRefreshToken() ?? undefined }, { noRefresh: true });
    } catch (err) {
      console.warn('Logout call failed; signing out on this device anyway', err);
    } finally {
      clearTokens();
      checkRun.current++;
      startTransition(() => {
        navigate('/', { replace: true });
        setState({ status: 'anonymous' });
      });
      setSigningOut(false);
    }
  }, [navigate]);

  const accountDeleted = useCallback(() => {
    clearTokens();
    checkRun.current++;
    startTransition(() => {
      navigate('/', { replace: true });
      setState({ status: 'anonymous', accountDeleted: true });
    });
  }, [navigate]);

  const retryCheck = useCallback(() => {
    setState({ status: 'loading' });
    check('report');
  }, [check]);

  const continueSignedOut = useCallback(() => {
    clearTokens();
    checkRun.current++;
    setState({ status: 'anonymous' });
  }, []);

  const value = useMemo<SessionValue>(
    () => ({
      state,
      user: state.status === 'authenticated' ? state.user : null,
      signingOut,
      signIn,
      adoptUser,
      signOut,
      accountDeleted,
      retryCheck,
      continueSignedOut,
    }),
    [state, signingOut, signIn, adoptUser, signOut, accountDeleted, retryCheck, continueSignedOut],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
