import type { ApiPositionRule } from '@app/common/api/rules';
import { formatIstDate, formatIstDateTime } from '@app/common/format/ist';
import { formatInr } from '@app/common/format/money';
import { instrumentKey } from '@app/common/market/tick-batch';
import { describeRule, isGeneratedName, RULE_KINDS } from '@app/common/rules/index';
import { useQuote } from '../../../live/hooks.ts';
import { AdjustmentNote } from './AdjustmentNote.tsx';
import { LiveNumber } from '../table/LiveNumber.tsx';
import { usePushedLevel } from './levelStore.ts';
import { CheckLine } from './CheckLine.tsx';
import { RuleActionButtons, RuleActionFeedback, RuleStatusBadge } from './RuleParts.tsx';
import { checkParts, lastCheck, liveLevels } from './ruleView.ts';
import { useRuleActions } from './useRuleActions.ts';

interface RuleItemProps {
  rule: ApiPositionRule;
  /** The holding's live price, which moves a trailing stop up between server pushes. */
  ltp: number | null;
  /** Other accounts hold the same stock: say when a rule covers them all. */
  multiAccount: boolean;
  onChanged: () => Promise<void>;
}

/**
 * One saved rule in an account row (docs/exit-rules.md): what it does, its trigger level
 * (a trailing stop's peak and level move live), Active / Triggered (orange) / Inactive, the
 * last check (price, distance to the level, time), and Enable or Disable and Delete.
 */
export function RuleItem({ rule, ltp, multiAccount, onChanged }: RuleItemProps) {
  const pushed = usePushedLevel(rule.id);
  const levels = liveLevels(rule, pushed, ltp);
  const check = checkParts(
    rule.status,
    lastCheck(rule, useQuote(instrumentKey(rule.exchange, rule.symbol)), levels.trigger),
  );
  const actions = useRuleActions(rule, onChanged);
  const description = describeRule(rule);
  const trailing = RULE_KINDS[rule.trigger_type].trails;

  return (
    <li className="rule-item" data-status={rule.status} data-rule-id={rule.id}>
      <div className="rule-item-head">
        <span className="rule-description">
          {description}
          {rule.rule_name && !isGeneratedName(rule.rule_name, rule) ? (
            <span className="rule-name">{rule.rule_name}</span>
          ) : null}
        </span>
        <RuleStatusBadge rule={rule} />
      </div>
      <p className="rule-levels">
        <span>
          Trigger{' '}
          <LiveNumber value={levels.trigger} className="rule-trigger">
            {formatInr(levels.trigger)}
          </LiveNumber>
        </span>
        {trailing && levels.peak !== null ? (
          <span>
            Peak <LiveNumber value={levels.peak}>{formatInr(levels.peak)}</LiveNumber>
          </span>
        ) : null}
        {rule.status === 'TRIGGERED' && rule.last_triggered_at ? (
          <span>Fired {formatIstDateTime(rule.last_triggered_at)} IST</span>
        ) : null}
        {rule.rearm_at !== null ? (
          <span className="rule-rearm-at">Re-arms at {formatInr(rule.rearm_at)}</span>
        ) : null}
        {multiAccount && rule.rule_scope === 'all_holdings' ? <span>All accounts</span> : null}
        <AdjustmentNote adjustments={rule.adjustments} />
      </p>
      {rule.level_reason ? (
        <p className="rule-level-reason">
          {rule.level_reason}
          {rule.atr_as_of
            ? ` (ATR to ${formatIstDate(rule.atr_as_of)}${trailing ? '; rises after each close' : ''})`
            : null}
        </p>
      ) : null}
      {check ? (
        <p className="rule-check">
          <CheckLine parts={check} className="rule-check-line" />
        </p>
      ) : null}
      <RuleActionButtons rule={rule} actions={actions} subject={`${description} on ${rule.symbol}`} />
      <RuleActionFeedback
        rule={rule}
        description={description}
        actions={actions}
        warning="You will no longer be alerted by this rule."
      />
    </li>
  );
}
