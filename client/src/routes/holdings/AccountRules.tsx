import type { AccountHolding, AggregatedHolding } from '@app/common/portfolio/types';
import { Link } from 'react-router';

export interface AccountRulesProps {
  holding: AggregatedHolding;
  account: AccountHolding;
}

/**
 * The rules slot of one account's holding in an expanded row (spec §2: that account's rules
 * and an Add Rule action; '+ Add' when there are no active rules). A placeholder until the
 * rules UI replaces this component: it shows the count and points to Price Guard.
 */
export function AccountRules({ holding, account }: AccountRulesProps) {
  const count = account.active_rules_count;
  return (
    <div className="account-rules" aria-label={`Rules for ${holding.symbol} in this account`} role="group">
      {count > 0 ? (
        <span className="badge badge-primary">
          {count} active {count === 1 ? 'rule' : 'rules'}
        </span>
      ) : (
        <>
          <span className="text-muted">No active rules</span>
          <Link
            to="/holdings?magic-setup=true"
            className="btn btn-secondary btn-sm"
            aria-label={`Add a rule for ${holding.symbol}`}
          >
            + Add
          </Link>
        </>
      )}
    </div>
  );
}
