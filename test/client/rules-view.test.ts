import type { ApiPositionRule } from '@app/common/api/rules';
import { expect } from 'chai';
import {
  liveLevels,
  rulesForAccount,
  STATUS_LABELS,
  tallyRules,
} from '../../client/src/routes/holdings/rules/ruleView.ts';

function rule(over: Partial<ApiPositionRule>): ApiPositionRule {
  return {
    id: 'r1',
    symbol: 'RELIANCE',
    exchange: 'NSE',
    rule_name: 'Trailing stop loss 7%',
    rule_scope: 'all_holdings',
    target_account_id: null,
    action_type: 'ALERT',
    trigger_type: 'TRAILING_STOP_LOSS',
    trigger_value: 7,
    value_type: 'PERCENT',
    reference: 'current',
    reference_price: 1500,
    peak_price: 1500,
    computed_trigger_price: 1395,
    atr_period: null,
    atr_value: null,
    atr_as_of: null,
    level_reason: null,
    sell_quantity_type: 'ALL_REMAINING',
    sell_quantity_value: null,
    order_type: 'MARKET',
    limit_price: null,
    is_active: true,
    paused_at_broker: null,
    status: 'ACTIVE',
    rearm: 'never',
    rearm_percent: 3,
    rearm_at: null,
    priority: 1,
    execution_count: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    last_triggered_at: null,
    current_price: 1500,
    adjustments: [],
    last_price: 1500,
    last_checked_at: '2026-01-01T05:11:00.000Z',
    distance_percent: 7,
    ...over,
  };
}

describe('client: rule display', () => {
  it('words the statuses: Active, Triggered, Inactive', () => {
    expect(STATUS_LABELS).to.deep.equal({ ACTIVE: 'Active', TRIGGERED: 'Triggered', INACTIVE: 'Inactive' });
  });

  it("lists an account's rules: all-holdings rules and its own, active first", () => {
    const rules = [
      rule({ id: 'off', status: 'INACTIVE', is_active: false }),
      rule({ id: 'fired', status: 'TRIGGERED', is_active: false }),
      rule({ id: 'mine', rule_scope: 'specific_account', target_account_id: 'a' }),
      rule({ id: 'theirs', rule_scope: 'specific_account', target_account_id: 'b' }),
      rule({ id: 'bse', exchange: 'BSE' }),
      rule({ id: 'other', symbol: 'INFY' }),
    ];
    expect(rulesForAccount(rules, 'RELIANCE', 'NSE', 'a').map((r) => r.id)).to.deep.equal([
      'mine',
      'fired',
      'off',
    ]);
    expect(rulesForAccount(rules, 'RELIANCE', 'NSE', null).map((r) => r.id)).to.deep.equal(['fired', 'off']);
  });

  it('moves an active trailing stop up with pushes and live rises, never down', () => {
    const trailing = rule({});
    expect(liveLevels(trailing, undefined, 1500)).to.deep.equal({ peak: 1500, trigger: 1395 });
    expect(liveLevels(trailing, { peak_price: 1540, computed_trigger_price: 1432.2 }, 1520)).to.deep.equal({
      peak: 1540,
      trigger: 1432.2,
    });
    expect(liveLevels(trailing, undefined, 1560)).to.deep.equal({ peak: 1560, trigger: 1450.8 });
    expect(liveLevels(trailing, undefined, 1400)).to.deep.equal({ peak: 1500, trigger: 1395 });
    expect(liveLevels(rule({ value_type: 'ABSOLUTE', trigger_value: 50 }), undefined, 1600)).to.deep.equal({
      peak: 1600,
      trigger: 1550,
    });
  });

  it('keeps the stored level of fixed, take-profit, fired and disabled rules', () => {
    const fixed = rule({ trigger_type: 'FIXED_STOP_LOSS', peak_price: null, computed_trigger_price: 1425 });
    expect(liveLevels(fixed, undefined, 1700)).to.deep.equal({ peak: null, trigger: 1425 });
    const fired = rule({
      status: 'TRIGGERED',
      is_active: false,
      peak_price: 1560,
      computed_trigger_price: 1450.8,
    });
    expect(liveLevels(fired, undefined, 1700)).to.deep.equal({ peak: 1560, trigger: 1450.8 });
  });

  it('counts rules by status', () => {
    const statuses = ['ACTIVE', 'ACTIVE', 'TRIGGERED', 'INACTIVE'] as const;
    expect(tallyRules(statuses.map((status) => ({ status })))).to.deep.equal({
      active: 2,
      triggered: 1,
      inactive: 1,
    });
  });
});
