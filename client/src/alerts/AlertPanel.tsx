import type { ApiRuleExecution } from '@app/common/api/rules';
import { Link } from 'react-router';
import { ErrorBox } from '../components/ErrorBox.tsx';
import { alertHeading, feedTime } from './alertDisplay.ts';
import { alertStore, useAlerts } from './alertStore.ts';
import { PriceAlerts } from './PriceAlerts.tsx';

interface AlertPanelProps {
  id: string;
  /** A link inside was followed: close the dropdown. */
  onNavigate: () => void;
}

/** The bell's dropdown: the feed (newest first) with read state, then the price alerts. */
export default function AlertPanel({ id, onNavigate }: AlertPanelProps) {
  const alerts = useAlerts();
  return (
    <section className="alert-panel" id={id} aria-labelledby={`${id}-title`}>
      <div className="alert-panel-head">
        <h2 id={`${id}-title`}>Alerts</h2>
        {alerts.unread > 0 ? (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => void alertStore.markAllRead()}
          >
            Mark all read
          </button>
        ) : null}
      </div>
      <ErrorBox message={alerts.error} onDismiss={() => alertStore.clearError()} />
      {!alerts.loaded ? (
        <p className="alert-empty">Loading alerts…</p>
      ) : alerts.feed.length === 0 ? (
        <p className="alert-empty">No alerts yet. When a rule or a price alert triggers, it shows up here.</p>
      ) : (
        <ul className="alert-feed" aria-label="Recent alerts">
          {alerts.feed.map((item) => (
            <FeedItem key={item.id} item={item} />
          ))}
        </ul>
      )}
      <PriceAlerts alerts={alerts.priceAlerts} />
      <p className="alert-panel-foot">
        <Link to="/history" onClick={onNavigate}>
          View Rule Execution History
        </Link>
      </p>
    </section>
  );
}

function FeedItem({ item }: { item: ApiRuleExecution }) {
  const title = alertHeading(item);
  return (
    <li className="alert-item" data-read={item.read}>
      <span className="alert-dot" aria-hidden="true" />
      <div className="alert-item-body">
        <p className="alert-item-title">
          <strong>{title}</strong>
          {item.read ? null : <span className="visually-hidden"> (unread)</span>}
        </p>
        {item.message ? <p className="alert-item-message">{item.message}</p> : null}
        <p className="alert-item-meta">
          {item.rule_name ? <span>{item.rule_name}</span> : null}
          <time dateTime={item.executed_at}>{feedTime(item.executed_at)}</time>
        </p>
        {item.read ? null : (
          <button
            type="button"
            className="btn btn-ghost btn-sm alert-read"
            onClick={() => void alertStore.markRead(item.id)}
            aria-label={`Mark read: ${title}`}
          >
            Mark read
          </button>
        )}
      </div>
      <button
        type="button"
        className="dismiss-button"
        aria-label={`Dismiss: ${title}`}
        title="Dismiss"
        onClick={() => void alertStore.dismiss(item.id)}
      >
        ×
      </button>
    </li>
  );
}
