import type { Exchange } from '../instruments/types.ts';
import type { RuleCoverage } from './types.ts';

/**
 * Whether a rule counts for one account's holding: it is active, is for the same symbol and
 * exchange, and applies to all holdings or targets that account.
 */
export function ruleCoversAccount(
  rule: RuleCoverage,
  symbol: string,
  exchange: Exchange,
  accountId: number | string | null,
): boolean {
  if (!rule.is_active || rule.symbol !== symbol || rule.exchange !== exchange) return false;
  if (rule.rule_scope === 'all_holdings' || rule.rule_scope === 'all') return true;
  return (
    accountId !== null &&
    rule.target_account_id !== null &&
    rule.target_account_id !== undefined &&
    String(rule.target_account_id) === String(accountId)
  );
}
