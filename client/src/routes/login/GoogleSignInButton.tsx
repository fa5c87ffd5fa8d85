import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { LoadingMessage } from '../../components/Spinner.tsx';
import { loadGoogleIdentity, type CredentialResponse } from './googleIdentity.ts';

interface GoogleSignInButtonProps {
  clientId: string;
  /** Receives the ID token Google issued after the user picked an account. */
  onCredential: (credential: string) => void;
  /** Receives a user-facing error text (Google's problems: docs/pages.md, Login). */
  onError: (message: string) => void;
}

/** Google's own 'Sign in with Google' button, rendered by Google Identity Services. */
export function GoogleSignInButton({ clientId, onCredential, onError }: GoogleSignInButtonProps) {
  const container = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);

  const handleResponse = useEffectEvent((response: CredentialResponse) => {
    if (response.credential) onCredential(response.credential);
    else onError('Google sign-in error: Google did not return a credential');
  });
  const reportError = useEffectEvent((message: string) => onError(message));

  useEffect(() => {
    let cancelled = false;
    loadGoogleIdentity().then(
      (gsi) => {
        const parent = container.current;
        if (cancelled || !parent) return;
        try {
          gsi.initialize({
            client_id: clientId,
            callback: (response) => handleResponse(response),
            ux_mode: 'popup',
            cancel_on_tap_outside: true,
            context: 'signin',
          });
          gsi.renderButton(parent, {
            type: 'standard',
            theme: 'outline',
            size: 'large',
            text: 'signin_with',
            shape: 'pill',
            logo_alignment: 'left',
            width: Math.max(200, Math.min(400, Math.floor(parent.clientWidth))),
          });
          setStatus('ready');
        } catch (err) {
          console.error('Google Sign-In initialisation failed', err);
          setStatus('failed');
          reportError('Failed to initialize Google Sign-In');
        }
      },
      (err: unknown) => {
        if (cancelled) return;
        console.error(err);
        setStatus('failed');
        reportError('Failed to load Google Identity Services');
      },
    );
    return () => {
      cancelled = true;
    };
  }, [clientId, attempt]);

  return (
    <div className="google-signin">
      {status === 'loading' ? <LoadingMessage>Loading Google Sign-In...</LoadingMessage> : null}
      {status === 'failed' ? (
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            setStatus('loading');
            setAttempt((n) => n + 1);
          }}
        >
          Try Google Sign-In again
        </button>
      ) : null}
      <div ref={container} className="google-button" hidden={status === 'failed'} />
    </div>
  );
}
