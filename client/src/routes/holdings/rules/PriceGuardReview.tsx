import { formatInr } from '@app/common/format/money';
import { distanceToLevel, PRICE_GUARD_RULE } from '@app/common/rules/index';
import { useMemo, useState } from 'react';
import { ErrorBox } from '../../../components/ErrorBox.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { GuardBacktestPreview } from './GuardBacktestPreview.tsx';
import type { BlockedTarget, GuardTarget, ReadyTarget, SaveProblem } from './ruleDrafts.ts';
import { draftKey } from './ruleDrafts.ts';
import { distanceText } from './ruleView.ts';

interface PriceGuardReviewProps {
  ready: readonly ReadyTarget[];
  blocked: readonly BlockedTarget[];
  accountNames: ReadonlyMap<string, string>;
  saving: boolean;
  problem: SaveProblem | null;
  onDismissProblem: () => void;
  onCancel: () => void;
  /** Saves the ticked rows (and leaves the blocked ones as drafts with their reasons). */
  onSave: (targets: readonly GuardTarget[]) => void;
}

/**
 * Price Guard's review (issue #28): one compact row per unguarded holding-account pair (symbol,
 * account, the 7 % trailing level, its distance from the price) with a tick box, and one Save;
 * the rows that cannot be protected yet are listed below with their reasons. Above them, what the
 * rule would have done on the holdings' daily history (GuardBacktestPreview).
 */
export default function PriceGuardReview({
  ready,
  blocked,
  accountNames,
  saving,
  problem,
  onDismissProblem,
  onCancel,
  onSave,
}: PriceGuardReviewProps) {
  const [unticked, setUnticked] = useState<ReadonlySet<string>>(new Set());
  const ticked = useMemo(() => ready.filter((t) => !unticked.has(draftKey(t))), [ready, unticked]);
  const toggle = (key: string) =>
    setUnticked((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const allTicked = ticked.length === ready.length;
  const account = (t: GuardTarget) => accountNames.get(t.accountId) ?? 'Account';
  const count = ticked.length;

  return (
    <Modal
      title="Review Price Guard rules"
      onClose={onCancel}
      busy={saving}
      actions={
        <button
          type="button"
          className="btn btn-primary"
          disabled={saving || count === 0}
          onClick={() => onSave([...ticked, ...blocked])}
          data-autofocus
        >
          {saving ? 'Saving...' : `Save ${count} ${count === 1 ? 'rule' : 'rules'}`}
        </button>
      }
    >
      <p className="guard-review-lead">
        A <strong>7% trailing stop-loss alert</strong> on each ticked holding: the level rises as the price
        rises, and you get an alert when the price falls to it.
      </p>
      {ready.length > 0 ? <GuardBacktestPreview /> : null}
      <ErrorBox
        message={problem?.message}
        details={problem?.details}
        onDismiss={onDismissProblem}
        title="Rules not saved"
      />
      {ready.length > 0 ? (
        <div className="guard-review-scroll" tabIndex={0} role="region" aria-label="Rules to save">
          <table className="guard-review">
            <thead>
              <tr>
                <th scope="col" className="guard-review-tick">
                  <input
                    type="checkbox"
                    aria-label="Tick every holding"
                    checked={allTicked}
                    onChange={() => setUnticked(allTicked ? new Set(ready.map(draftKey)) : new Set())}
                  />
                </th>
                <th scope="col">Symbol</th>
                <th scope="col">Account</th>
                <th scope="col" className="num">
                  Level
                </th>
                <th scope="col" className="num">
                  Distance
                </th>
              </tr>
            </thead>
            <tbody>
              {ready.map((t) => {
                const key = draftKey(t);
                const distance = distanceToLevel(
                  { triggerType: PRICE_GUARD_RULE.trigger_type, triggerPrice: t.level },
                  t.price,
                );
                return (
                  <tr key={key} data-symbol={t.symbol}>
                    <td className="guard-review-tick">
                      <input
                        type="checkbox"
                        aria-label={`Protect ${t.symbol} in ${account(t)}`}
                        checked={!unticked.has(key)}
                        onChange={() => toggle(key)}
                      />
                    </td>
                    <th scope="row">
                      {t.symbol} <span className="text-muted guard-review-exchange">{t.exchange}</span>
                      <span className="guard-review-account-inline text-muted">{account(t)}</span>
                    </th>
                    <td className="guard-review-account">{account(t)}</td>
                    <td className="num">{formatInr(t.level)}</td>
                    <td className="num">
                      {distance === null ? '—' : distanceText(distance)}
                      <span className="guard-review-price text-muted"> of {formatInr(t.price)}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="guard-scope">Nothing can be protected right now.</p>
      )}
      {blocked.length > 0 ? (
        <section className="guard-review-blocked" aria-label="Needs attention">
          <h3>Needs attention</h3>
          <ul>
            {blocked.map((t) => (
              <li key={draftKey(t)}>
                <strong>{t.symbol}</strong> <span className="text-muted">{account(t)}</span>: {t.reason}
              </li>
            ))}
          </ul>
          <p className="text-muted">
            {blocked.length === 1 ? 'It stays a draft' : 'They stay drafts'} on the Holdings page, with the
            reason beside {blocked.length === 1 ? 'it' : 'them'}.
          </p>
        </section>
      ) : null}
    </Modal>
  );
}
