import type { ApiPriceAlert } from '@app/common/api/price-alerts';
import type { ApiPositionRule, ApiRuleExecution } from '@app/common/api/rules';
import { firedPriceAlert, firedRule, withFiredItem } from '@app/common/rules/fired';
import { expect } from 'chai';

const execution = (over: Partial<ApiRuleExecution> = {}): ApiRuleExecution => ({
  id: 'e1',
  symbol: 'RELIANCE',
  exchange: 'NSE',
  trigger_type: 'TRAILING_STOP_LOSS',
  status: 'PENDING',
  execution_type: 'ALERT',
  trigger_price: 1450.8,
  execution_price: 1440,
  message: 'RELIANCE fell to ₹1,440.00',
  executed_at: '2024-06-04T04:00:00.000Z',
  rule_id: 'r1',
  price_alert_id: null,
  over_quota: false,
  notice_id: null,
  error_message: null,
  account_id: null,
  quantity_executed: null,
  broker_order_id: null,
  rule_name: 'Trailing stop 7%',
  read: false,
  deliveries: [],
  ...over,
});

describe('common: what an alert push changes in the lists a tab holds', () => {
  const rule = {
    id: 'r1',
    is_active: true,
    status: 'ACTIVE',
    execution_count: 2,
    computed_trigger_price: 1449.1,
    last_triggered_at: null,
    updated_at: '2024-06-01T00:00:00.000Z',
  } as ApiPositionRule;

  it('marks the fired rule triggered, as the claim stores it, and leaves other rules alone', () => {
    expect(firedRule(rule, execution())).to.deep.include({
      is_active: false,
      status: 'TRIGGERED',
      execution_count: 3,
      computed_trigger_price: 1450.8,
      last_triggered_at: '2024-06-04T04:00:00.000Z',
    });
    expect(firedRule(rule, execution({ rule_id: 'other' }))).to.equal(rule);
    const inactive = { ...rule, is_active: false, status: 'INACTIVE' } as ApiPositionRule;
    expect(firedRule(inactive, execution())).to.equal(inactive);
  });

  it('leaves a rule as it is for a re-arming: the rules reload that follows brings it armed', () => {
    expect(firedRule(rule, execution({ execution_type: 'REARM' }))).to.equal(rule);
  });

  it('marks the fired price alert triggered', () => {
    const alert = { id: 'a1', is_active: true, status: 'ACTIVE', triggered_at: null } as ApiPriceAlert;
    const fired = execution({ rule_id: null, price_alert_id: 'a1', trigger_type: 'PRICE_BELOW' });
    expect(firedPriceAlert(alert, fired)).to.deep.include({ is_active: false, status: 'TRIGGERED' });
    expect(firedPriceAlert(alert, execution())).to.equal(alert);
  });

  it('puts the execution first in the bell once, one more unread, within the feed limit', () => {
    const old = [execution({ id: 'e0', read: true })];
    const once = withFiredItem(old, 0, execution(), 2);
    expect(once.feed.map((e) => e.id)).to.deep.equal(['e1', 'e0']);
    expect(once.unread).to.equal(1);
    // The same push twice (two tabs' worth of reconnects) counts once.
    expect(withFiredItem(once.feed, once.unread, execution(), 2).unread).to.equal(1);
    expect(withFiredItem(once.feed, 1, execution({ id: 'e2' }), 2).feed.map((e) => e.id)).to.deep.equal([
      'e2',
      'e1',
    ]);
  });
});
