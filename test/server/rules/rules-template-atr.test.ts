/**
 * The built-in "Volatility stop (3 × ATR(22))" template (issue #33 item 3; docs/exit-rules.md),
 * sent as the Apply Rule Templates dialog sends it: a holding with a month of daily bars gets a
 * trailing ATR(22) stop from today's price; one without is skipped with the days it needs, and
 * does not hold the other back.
 */
import type { ApiBulkCreateResult } from '@app/common/api/rules';
import { expect } from 'chai';
import { BUILT_IN_TEMPLATES, templateRules } from '../../../common/src/rules/wizard.ts';
import { storeMadeBars } from '../../helpers/made-bars.ts';
import { addHolding, publishPrices, rulesSuite } from './support.ts';

describe('templates: the volatility stop (3 × ATR(22))', () => {
  const { app, api, users } = rulesSuite();

  it('sets a trailing ATR(22) stop where there is history, and names the holding without it', async () => {
    const user = await users.make();
    // A month and a half of days trading ₹20 from low to high: ATR(22) is ₹20.
    await storeMadeBars(
      app.runtime.deps.db,
      'VOLSTOPA',
      Array.from({ length: 30 }, () => [1000, 1010, 990, 1000]),
    );
    await publishPrices(app, { VOLSTOPA: 1000, VOLSTOPB: 500 });
    await addHolding(app, user, 'VOLSTOPA', 10, 800);
    await addHolding(app, user, 'VOLSTOPB', 10, 400);
    const template = BUILT_IN_TEMPLATES.find((t) => t.name === 'Volatility stop (3 × ATR(22))')!;
    const rules = templateRules(template, {
      template_id: template.id,
      holdings: ['NSE:VOLSTOPA', 'NSE:VOLSTOPB'],
      scope: 'all',
      account_id: null,
    });
    const res = await api.post<ApiBulkCreateResult>('/api/position-rules/bulk', { rules }, user.token);
    expect(res.status, res.body.error).to.equal(201);
    const [rule] = res.body.data!.rules;
    expect(rule).to.deep.include({
      symbol: 'VOLSTOPA',
      rule_name: 'Volatility stop (3 × ATR(22))',
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'ATR',
      atr_period: 22,
      reference: 'current',
      // From today's ₹1,000, not the ₹800 bought: 1,000 − 3 × ₹20.
      computed_trigger_price: 940,
    });
    expect(res.body.data!.skipped.map((s) => [s.symbol, s.reason])).to.deep.equal([
      ['VOLSTOPB', 'Needs 22 more days of history for an ATR(22) stop on VOLSTOPB.'],
    ]);
  });
});
