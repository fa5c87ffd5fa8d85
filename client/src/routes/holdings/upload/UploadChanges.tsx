import { formatInr } from '@app/common/format/money';
import {
  countsOfChanges,
  importCountsText,
  type ImportChanges,
  type PreviewRuleRemoval,
} from '@app/common/holdings/upload-preview';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { ReactNode } from 'react';

const quantity = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 4 });

/** `10 @ ₹400.00` */
export function holdingFigures(h: { quantity: number; average_price: number }): string {
  return `${quantity.format(h.quantity)} @ ${formatInr(h.average_price)}`;
}

/**
 * What the upload does to the account, before anything is stored: counts (the notice after the
 * upload repeats them), and the holdings it removes (listed one by one, marked as removals) with
 * the exit rules that go with them, since the file replaces the account's holdings.
 */
export function UploadChanges({
  changes,
  rulesRemoved,
  accountName,
  isNew,
  skipped,
}: {
  changes: ImportChanges;
  rulesRemoved: readonly PreviewRuleRemoval[];
  accountName: string;
  isNew: boolean;
  skipped: number;
}) {
  return (
    <div className="upload-changes" aria-live="polite">
      <p className="upload-changes-summary">
        {isNew ? 'Into the new account' : 'Into'} <strong>{accountName}</strong>:{' '}
        {importCountsText(countsOfChanges(changes, skipped))}.
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
          <ScrollingList label="Holdings removed">
            {changes.remove.map((h) => (
              <li key={instrumentKey(h.exchange, h.symbol)}>
                <span className="upload-removed-symbol">
                  <s>{h.symbol}</s> <span className="badge">{h.exchange}</span>
                </span>
                <span className="upload-removed-figures">{holdingFigures(h)}</span>
              </li>
            ))}
          </ScrollingList>
          {rulesRemoved.length > 0 ? <RulesRemoved rules={rulesRemoved} /> : null}
        </div>
      ) : null}
    </div>
  );
}

/** The exit rules deleted with the removed holdings, by name: a file missing a row by mistake says so here. */
function RulesRemoved({ rules }: { rules: readonly PreviewRuleRemoval[] }) {
  return (
    <div className="upload-rules-removed">
      <p>
        <strong>
          {rules.length === 1 ? '1 exit rule' : `${rules.length} exit rules`} will be deleted too
        </strong>
        , as nothing else holds {rules.length === 1 ? 'its stock' : 'their stocks'}:
      </p>
      <ScrollingList label="Exit rules this upload deletes">
        {rules.map((rule) => (
          <li key={rule.id}>
            <span>
              {rule.rule_name} <span className="text-muted">({rule.symbol})</span>
            </span>
          </li>
        ))}
      </ScrollingList>
    </div>
  );
}

/**
 * A list of the preview that scrolls once long: a named region that takes keyboard focus, so that
 * keyboard users can scroll it too (as the table of rows).
 */
function ScrollingList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="upload-scroll-list" tabIndex={0} role="region" aria-label={label}>
      <ul>{children}</ul>
    </div>
  );
}
