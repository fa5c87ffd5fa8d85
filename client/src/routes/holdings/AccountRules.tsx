import type { AccountHolding, AggregatedHolding } from '@app/common/portfolio/types';
import { useMemo } from 'react';
import { HoldingNotices } from './HoldingNotices.tsx';
import { useDraft, useHighlighted } from './rules/draftStore.ts';
import { DraftEditor } from './rules/DraftEditor.tsx';
import { draftKey, newDraft } from './rules/ruleDrafts.ts';
import { RuleItem } from './rules/RuleItem.tsx';
import { useRulesContext } from './rules/RulesContext.ts';
import { rulesForAccount } from './rules/ruleView.ts';

export interface AccountRulesProps {
  holding: AggregatedHolding;
  account: AccountHolding;
  /** The account's display name. */
  accountName: string;
}

/**
 * The rules of one account's holding in an expanded row (docs/exit-rules.md): each saved rule with its
 * level and status, this row's unsaved draft, and Add Rule ('+ Add' while no rule is active).
 */
export function AccountRules({ holding, account, accountName }: AccountRulesProps) {
  const { rules, drafts, reload } = useRulesContext();
  const accountId = account.broker_account_id === null ? null : String(account.broker_account_id);
  const target = accountId ? { symbol: holding.symbol, exchange: holding.exchange, accountId } : null;
  const key = target ? draftKey(target) : '';
  const draft = useDraft(drafts, key);
  const highlighted = useHighlighted(drafts, key);
  const shown = useMemo(
    () => rulesForAccount(rules, holding.symbol, holding.exchange, accountId),
    [rules, holding.symbol, holding.exchange, accountId],
  );
  const noActiveRule = account.active_rules_count === 0;
  const subject =
    holding.accounts.length > 1
      ? `${holding.symbol} in ${accountName}`
      : `${holding.symbol} (${holding.exchange})`;

  return (
    <div
      className="account-rules"
      role="group"
      aria-label={`Rules for ${subject}`}
      data-rule-target={key || undefined}
      data-highlight={highlighted || undefined}
    >
      <div className="account-rules-head">
        <h4 className="account-rules-title">Exit rules</h4>
        {target && !draft ? (
          <button
            type="button"
            className={`btn btn-sm ${noActiveRule ? 'btn-primary' : 'btn-secondary'}`}
            onClick={() => drafts.add([newDraft(target)])}
            aria-label={noActiveRule ? `Add a rule for ${subject}` : `Add Rule for ${subject}`}
          >
            {noActiveRule ? '+ Add' : 'Add Rule'}
          </button>
        ) : null}
      </div>
      <HoldingNotices
        symbol={holding.symbol}
        exchange={holding.exchange}
        manual={account.broker_type === 'USER_ADDED'}
      />
      {shown.length === 0 && !draft ? (
        <p className="account-rules-empty text-muted">No rules yet: this holding is not guarded.</p>
      ) : null}
      {shown.length > 0 ? (
        <ul className="rule-list">
          {shown.map((rule) => (
            <RuleItem
              key={rule.id}
              rule={rule}
              ltp={account.current_price}
              multiAccount={holding.accounts.length > 1}
              onChanged={reload}
            />
          ))}
        </ul>
      ) : null}
      {draft ? (
        <DraftEditor
          draft={draft}
          store={drafts}
          ltp={account.current_price}
          subject={subject}
          onSaved={reload}
        />
      ) : null}
    </div>
  );
}
