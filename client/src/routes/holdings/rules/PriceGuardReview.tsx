import { formatInr } from '@app/common/format/money';
import { distanceToLevel, PRICE_GUARD_RULE } from '@app/common/rules/index';
import { useId, useMemo, useRef, useState } from 'react';
import { ErrorBox } from '../../../components/ErrorBox.tsx';
import { Modal } from '../../../components/Modal.tsx';
import '../../../styles/rule-dialogs.css';
import { GuardBacktestPreview } from './GuardBacktestPreview.tsx';
import type { BlockedTarget, GuardChoice, GuardTarget, ReadyTarget, SaveProblem } from './ruleDrafts.ts';
import { draftKey, guardRule } from './ruleDrafts.ts';
import { distanceText } from './ruleView.ts';

interface PriceGuardReviewProps {
  ready: readonly ReadyTarget[];
  blocked: readonly BlockedTarget[];
  accountNames: ReadonlyMap<string, string>;
  saving: boolean;
  problem: SaveProblem | null;
  onDismissProblem: () => void;
  onCancel: () => void;
  /** Saves the chosen rule on the ticked rows (and leaves the blocked ones as drafts with their reasons). */
  onSave: (targets: readonly GuardTarget[], choice: GuardChoice) => void;
}

const ATR = guardRule('atr');
/** '3 × ATR(22)': the ATR stop's level as the review can say it before the server works it out. */
const ATR_LEVEL = `${ATR.triggerValue} × ATR(${ATR.atrPeriod})`;
const PERCENT_NAME = `${PRICE_GUARD_RULE.trigger_value}% trailing stop`;

/**
 * Price Guard's review (issue #28): the rule to give (the 7 % trailing stop, or a 3 × ATR(22)
 * trailing stop that follows each stock's own daily swing, issue #33), then one compact row per
 * unguarded holding-account pair (symbol, account, the level, its distance from the price) with a
 * tick box, and one Save; the rows that cannot be protected yet are listed below with their
 * reasons. Above them, what the rule would have done on the holdings' daily history
 * (GuardBacktestPreview), whose ATR suggestion can choose the ATR stop. An ATR stop's level comes
 * from the server's daily history when saved, so its row says how it is set, not the rupees.
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
  const id = useId();
  const [choice, setChoice] = useState<GuardChoice>('percent');
  const atrRadio = useRef<HTMLInputElement>(null);
  // The suggestion's button goes once the ATR stop is chosen: the focus moves to its choice.
  const chooseAtr = () => {
    setChoice('atr');
    atrRadio.current?.focus();
  };
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
          onClick={() => onSave([...ticked, ...blocked], choice)}
          data-autofocus
        >
          {saving ? 'Saving...' : `Save ${count} ${count === 1 ? 'rule' : 'rules'}`}
        </button>
      }
    >
      <fieldset className="guard-review-rule">
        <legend className="visually-hidden">Rule</legend>
        <div className="choice-row">
          <label className="choice choice-inline">
            <input
              type="radio"
              name={`${id}-rule`}
              checked={choice === 'percent'}
              onChange={() => setChoice('percent')}
            />
            <span>
              <strong>{PERCENT_NAME}</strong>
              <small>{PRICE_GUARD_RULE.trigger_value}% below the price, rising with it</small>
            </span>
          </label>
          <label className="choice choice-inline">
            <input
              ref={atrRadio}
              type="radio"
              name={`${id}-rule`}
              checked={choice === 'atr'}
              onChange={() => setChoice('atr')}
            />
            <span>
              <strong>{ATR_LEVEL} trailing stop</strong>
              <small>Follows each stock’s own daily swing</small>
            </span>
          </label>
        </div>
      </fieldset>
      <p className="guard-review-lead">
        {choice === 'percent' ? (
          <>
            A <strong>{PRICE_GUARD_RULE.trigger_value}% trailing stop-loss alert</strong> on each ticked
            holding: the level rises as the price rises, and you get an alert when the price falls to it.
          </>
        ) : (
          <>
            A <strong>{ATR_LEVEL} trailing stop-loss alert</strong> on each ticked holding: the level sits{' '}
            {ATR.triggerValue} times the stock’s average daily range over {ATR.atrPeriod} days below its
            highest close, and rises with it. A holding without enough daily history stays a draft, with the
            days it needs.
          </>
        )}
      </p>
      {ready.length > 0 ? <GuardBacktestPreview atrChosen={choice === 'atr'} onUseAtr={chooseAtr} /> : null}
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
                    {choice === 'atr' ? (
                      <>
                        <td className="num">{ATR_LEVEL}</td>
                        <td className="num guard-review-on-save">set from its daily history when saved</td>
                      </>
                    ) : (
                      <>
                        <td className="num">{formatInr(t.level)}</td>
                        <td className="num">
                          {distance === null ? '—' : distanceText(distance)}
                          <span className="guard-review-price text-muted"> of {formatInr(t.price)}</span>
                        </td>
                      </>
                    )}
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
