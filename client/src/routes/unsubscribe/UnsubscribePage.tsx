import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, errorMessage } from '../../api/client.ts';
import { AlertCircleIcon, CheckCircleIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../layout/useDocumentTitle.ts';

type State =
  | { status: 'asking' }
  | { status: 'saving' }
  | { status: 'done'; address: string }
  | { status: 'error'; message: string };

const INVALID = 'This unsubscribe link is not valid. Manage your alert emails in Settings.';

/**
 * `/unsubscribe?token=…`: where an alert email's unsubscribe link leads a person (issue #28). It
 * asks before it stops the emails, as a link scanner opening the link must not unsubscribe
 * anyone; a mail client's one-click unsubscribe POSTs to the API directly.
 */
export default function UnsubscribePage() {
  useDocumentTitle('Stop alert emails');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>(
    token ? { status: 'asking' } : { status: 'error', message: INVALID },
  );

  async function stop() {
    setState({ status: 'saving' });
    try {
      const data = await api.post<{ value: string }>('/notification-endpoints/unsubscribe', undefined, {
        query: { token },
        noRefresh: true,
      });
      setState({ status: 'done', address: data.value });
    } catch (err) {
      setState({ status: 'error', message: errorMessage(err, 'Could not stop the emails. Try again.') });
    }
  }

  return (
    <div className="container container-narrow page">
      <section className="card status-card" aria-live="polite">
        {state.status === 'done' ? (
          <div className="status-card-body">
            <CheckCircleIcon size={48} className="status-icon status-icon-success" />
            <h1>Alert emails stopped</h1>
            <p>
              Alerts will no longer be emailed to <strong>{state.address}</strong>. You can turn them back on
              in Settings.
            </p>
            <Link to="/settings" className="btn btn-primary">
              Go to Notification Settings
            </Link>
          </div>
        ) : state.status === 'error' ? (
          <div className="status-card-body">
            <AlertCircleIcon size={48} className="status-icon status-icon-error" />
            <h1>We couldn&apos;t stop the emails</h1>
            <p className="error-text" role="alert">
              {state.message}
            </p>
            <Link to="/settings" className="btn btn-primary">
              Go to Notification Settings
            </Link>
          </div>
        ) : (
          <div className="status-card-body">
            <h1>Stop alert emails to this address?</h1>
            <p>
              Your rules keep watching; their alerts still show in the app and go to your other addresses.
            </p>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void stop()}
              disabled={state.status === 'saving'}
            >
              {state.status === 'saving' ? 'Stopping…' : 'Stop alert emails'}
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
