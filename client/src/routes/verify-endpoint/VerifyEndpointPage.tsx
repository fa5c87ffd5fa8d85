import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AlertCircleIcon, CheckCircleIcon } from '../../components/icons.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';
import { verifyEndpointToken, type VerifyOutcome } from './verifyToken.ts';

/** Email endpoint verification landing: `/verify-endpoint?token=...` (docs/notifications.md). */
export default function VerifyEndpointPage() {
  useDocumentTitle('Verify your email');
  const [params] = useSearchParams();
  const token = params.get('token');
  const [result, setResult] = useState<{ token: string; outcome: VerifyOutcome } | null>(null);

  useEffect(() => {
    if (!token) return;
    let current = true;
    void verifyEndpointToken(token).then((outcome) => {
      if (current) setResult({ token, outcome });
    });
    return () => {
      current = false;
    };
  }, [token]);

  const outcome: VerifyOutcome | null = !token
    ? { status: 'error', message: 'Invalid verification link.' }
    : result?.token === token
      ? result.outcome
      : null;

  return (
    <div className="container container-narrow page">
      <section className="card status-card" aria-live="polite">
        {outcome === null ? (
          <div role="status" className="status-card-body">
            <Spinner size="lg" />
            <h1>Verifying your email...</h1>
          </div>
        ) : outcome.status === 'success' || outcome.status === 'already' ? (
          <div className="status-card-body">
            <CheckCircleIcon size={48} className="status-icon status-icon-success" />
            <h1>{outcome.status === 'already' ? 'Email already verified' : 'Email verified'}</h1>
            {outcome.status === 'already' ? (
              <p>
                This email address was already verified with this link: there is nothing more to do. Stock
                alert notifications go to it when your rules trigger.
              </p>
            ) : (
              <p>
                Thank you for verifying your email address. You will now receive stock alert notifications
                when your rules trigger.
              </p>
            )}
            <Link to="/settings" className="btn btn-primary">
              Go to Notification Settings
            </Link>
          </div>
        ) : (
          <div className="status-card-body">
            <AlertCircleIcon size={48} className="status-icon status-icon-error" />
            <h1>We couldn&apos;t verify your email</h1>
            <p className="error-text" role="alert">
              {outcome.message}
            </p>
            <p className="text-muted">
              You can send a new verification link from your notification settings.
            </p>
            <Link to="/settings" className="btn btn-primary">
              Go to Notification Settings
            </Link>
          </div>
        )}
      </section>
    </div>
  );
}
