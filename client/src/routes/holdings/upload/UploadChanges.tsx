import { formatInr } from '@app/common/format/money';
import type { ImportChanges } from '@app/common/holdings/upload-preview';
import { instrumentKey } from '@app/common/market/tick-batch';

const quantity = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 4 });

/** `10 @ ₹400.00` */
export function holdingFigures(h: { quantity: number; average_price: number }): string {
  return `${quantity.format(h.quantity)} @ ${formatInr(h.average_price)}`;
}

/**
 * What the upload does to the account, before anything is stored: counts, and the holdings it
 * removes (listed one by one, marked as removals), since the file replaces the account's holdings.
 */
export function UploadChanges({
  changes,
  accountName,
  isNew,
  skipped,
}: {
  changes: ImportChanges;
  accountName: string;
  isNew: boolean;
  skipped: number;
}) {
  const parts = [
    `${changes.add.length} new`,
    `${changes.update.length} changed`,
    ...(changes.unchanged ? [`${changes.unchanged} unchanged`] : []),
    `${changes.remove.length} removed`,
    ...(skipped ? [`${skipped} skipped`] : []),
  ];
  return (
    <div className="upload-changes" aria-live="polite">
      <p className="upload-changes-summary">
        {isNew ? 'Into the new account' : 'Into'} <strong>{accountName}</strong>: {parts.join(', ')}.
      </p>
      {changes.remove.length > 0 ? (
        <div className="upload-removals" role="group" aria-label="Holdings this upload removes">
          <p>
            <strong>
              {changes.remove.length === 1 ? '1 holding' : `${changes.remove.length} holdings`} will be
              removed
            </strong>{' '}
            from {accountName}: the file no longer lists {changes.remove.length === 1 ? 'it' : 'them'}.
          </p>
          <ul>
            {changes.remove.map((h) => (
              <li key={instrumentKey(h.exchange, h.symbol)}>
                <span className="upload-removed-symbol">
                  <s>{h.symbol}</s> <span className="badge">{h.exchange}</span>
                </span>
                <span className="upload-removed-figures">{holdingFigures(h)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
