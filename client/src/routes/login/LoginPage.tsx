import { useRef, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { ApiError, api } from '../../api/client.ts';
import { ErrorBox } from '../../components/ErrorBox.tsx';
import { LogoMark } from '../../components/icons.tsx';
import { LoadingMessage } from '../../components/Spinner.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import { useSession } from '../../session/context.ts';
import { safeRedirect } from '../../session/redirect.ts';
import type { SignInResult } from '../../session/types.ts';
import { DemoSignInForm } from './DemoSignInForm.tsx';
import { GoogleSignInButton } from './GoogleSignInButton.tsx';
import { useAuthConfig } from './useAuthConfig.ts';
import '../../styles/login.css';

const LOGIN_FAILED = 'Login failed. Please try again.';

/**
 * The failure text (docs/pages.md, Login). Only a rate limit keeps the server's sentence,
 * since it tells the user how long to wait rather than to try again at once.
 */
function loginFailure(err: unknown): string {
  return err instanceof ApiError && err.status === 429 && err.fromServer ? err.message : LOGIN_FAILED;
}

/** Why a signed-in tab landed here: another tab of this browser signed out. */
export const SIGNED_OUT_ELSEWHERE = 'You were signed out in another tab. Sign in again to continue.';

/** Sign-in (docs/pages.md): Google when configured, demo sign-in in demo mode. */
export default function LoginPage() {
  useDocumentTitle('Sign in');
  const [params] = useSearchParams();
  const { state, signIn } = useSession();
  const { loading, config, error: configError, retry } = useAuthConfig();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef(false);

  if (state.status === 'authenticated') return <Navigate to={safeRedirect(params.get('redirect'))} replace />;

  async function complete(request: () => Promise<SignInResult>, describe: (err: unknown) => string) {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      signIn(await request());
    } catch (err) {
      console.warn('Sign-in failed', err);
      setError(describe(err));
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  }

  const signInWithGoogle = (credential: string) =>
    void complete(
      () => api.post<SignInResult>('/auth/google', { credential }, { noRefresh: true }),
      (err) =>
        err instanceof ApiError && err.fromServer ? `Google sign-in error: ${err.message}` : LOGIN_FAILED,
    );
  const signInAsDemo = (email: string, name: string) =>
    void complete(
      () => api.post<SignInResult>('/auth/login', { email, name }, { noRefresh: true }),
      loginFailure,
    );

  return (
    <div className="container page login-page">
      <div className="card login-card">
        <div className="login-header">
          <LogoMark size={44} />
          <h1>Sign in to Portfolio Guard</h1>
          <p className="text-muted">
            Track your NSE and BSE holdings and get alerted when your exit rules trigger.
          </p>
        </div>

        {state.status === 'anonymous' && state.signedOutElsewhere ? (
          <p className="login-notice" role="status">
            {SIGNED_OUT_ELSEWHERE}
          </p>
        ) : null}
        <ErrorBox message={error} onDismiss={() => setError(null)} />
        {busy ? <LoadingMessage>Signing you in...</LoadingMessage> : null}

        {loading ? <LoadingMessage>Loading sign-in options...</LoadingMessage> : null}
        {configError ? (
          <ErrorBox message={configError} title="Sign-in is unavailable right now">
            <button type="button" className="btn btn-secondary btn-sm" onClick={retry}>
              Try again
            </button>
          </ErrorBox>
        ) : null}

        {config ? (
          <div className="login-methods" aria-busy={busy}>
            {config.googleClientId ? (
              <GoogleSignInButton
                clientId={config.googleClientId}
                onCredential={signInWithGoogle}
                onError={setError}
              />
            ) : (
              <section className="notice-card" aria-labelledby="google-unavailable-title">
                <h2 id="google-unavailable-title">Google Sign-In Unavailable</h2>
                <p className="notice-card-label">Setup Required</p>
                <p>
                  Google OAuth is not configured on this server. An administrator needs to set
                  GOOGLE_CLIENT_ID to a Google OAuth web client ID and restart the server.
                  {config.demoMode ? ' Until then, you can use the demo sign-in below.' : ''}
                </p>
              </section>
            )}
            {config.demoMode ? <DemoSignInForm busy={busy} onSubmit={signInAsDemo} /> : null}
          </div>
        ) : null}

        <p className="consent-line">
          By signing in, you agree to our <Link to="/terms">Terms and Conditions</Link> and{' '}
          <Link to="/privacy">Privacy Policy</Link>, and confirm that you are 18 or older.
        </p>
      </div>
      <p className="login-footnote">
        First time here? Signing in creates your account. <Link to="/know-more">See how it works</Link>
      </p>
    </div>
  );
}
