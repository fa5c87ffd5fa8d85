/**
 * Where each alert went (docs/notifications.md#where-each-alert-went): a History row's channel
 * badges ('Email sent', 'Push failed') and the details list behind them: channel, where to,
 * status, time in IST, and why it failed.
 */
import type { ApiDelivery } from '@app/common/api/rules';
import {
  CHANNEL_LABELS,
  deliveryBadgeText,
  deliveryStatusWord,
  deliveryTime,
  deliveryTone,
  shownDeliveryStatus,
} from './executionDisplay.ts';

const toneClass = (delivery: ApiDelivery) => {
  const tone = deliveryTone(shownDeliveryStatus(delivery));
  return tone === 'neutral' ? 'badge' : `badge badge-${tone}`;
};

/** One small badge per delivery, in the server's order (by channel, then creation). */
export function DeliveryBadges({ deliveries }: { deliveries: ApiDelivery[] }) {
  if (deliveries.length === 0) return null;
  return (
    <ul className="delivery-badges" aria-label="Deliveries">
      {deliveries.map((delivery, i) => (
        <li key={i} className={`${toneClass(delivery)} delivery-badge`} data-status={delivery.status}>
          {deliveryBadgeText(delivery)}
        </li>
      ))}
    </ul>
  );
}

/** The details behind the badges, folded: one line per delivery, the error under a failed one. */
export function DeliveryDetails({ deliveries, subject }: { deliveries: ApiDelivery[]; subject: string }) {
  if (deliveries.length === 0) return null;
  return (
    <details className="delivery-details">
      <summary>
        Where it went<span className="visually-hidden"> ({subject})</span>
      </summary>
      <ul className="delivery-list">
        {deliveries.map((delivery, i) => (
          <li key={i} className="delivery-item">
            <span className="delivery-line">
              <span className="delivery-channel">{CHANNEL_LABELS[delivery.channel]}</span>
              <span className="delivery-label">{delivery.label}</span>
            </span>
            <span className="delivery-line">
              <span
                className={`delivery-status delivery-status-${deliveryTone(shownDeliveryStatus(delivery))}`}
              >
                {deliveryStatusWord(delivery)}
              </span>
              <time className="delivery-time" dateTime={delivery.at}>
                {deliveryTime(delivery.at)}
              </time>
            </span>
            {delivery.error ? <span className="delivery-error">{delivery.error}</span> : null}
          </li>
        ))}
      </ul>
    </details>
  );
}
