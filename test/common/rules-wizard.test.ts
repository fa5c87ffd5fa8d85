import { expect } from 'chai';
import { bulkCreateRulesBody } from '../../common/src/api/rules.ts';
import {
  BUILT_IN_TEMPLATES,
  canLeaveWizardStep,
  templateDialogError,
  templateRules,
  WIZARD_DEFAULTS,
  wizardStepError,
  type WizardState,
} from '../../common/src/rules/wizard.ts';

describe('rules: wizard and template dialog', () => {
  const state = (over: Partial<WizardState> = {}): WizardState => ({ ...WIZARD_DEFAULTS, ...over });

  it('has the wizard defaults: trailing stop loss 10, sell all remaining, market order, priority 1', () => {
    expect(WIZARD_DEFAULTS).to.deep.include({
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 10,
      sell_quantity_type: 'ALL_REMAINING',
      order_type: 'MARKET',
      priority: 1,
    });
  });

  it('step 1 needs a non-blank name; step 2 all holdings or an account', () => {
    expect(canLeaveWizardStep(1, state({ rule_name: '   ' }))).to.equal(false);
    expect(canLeaveWizardStep(1, state({ rule_name: 'Protect gains' }))).to.equal(true);
    expect(canLeaveWizardStep(2, state({ rule_scope: 'all_holdings' }))).to.equal(true);
    expect(
      canLeaveWizardStep(2, state({ rule_scope: 'specific_account', target_account_id: null })),
    ).to.equal(false);
    expect(
      canLeaveWizardStep(2, state({ rule_scope: 'specific_account', target_account_id: 'a1' })),
    ).to.equal(true);
  });

  it('step 3 needs a trigger value > 0; step 4 ALERT, or SELL with all remaining or a quantity > 0', () => {
    expect(wizardStepError(3, state({ trigger_value: '0' }))).to.equal(
      'Please enter a valid trigger value greater than 0',
    );
    expect(canLeaveWizardStep(3, state({ trigger_value: '2.5' }))).to.equal(true);
    expect(
      canLeaveWizardStep(4, state({ action_type: 'ALERT', sell_quantity_type: 'FIXED_AMOUNT' })),
    ).to.equal(true);
    expect(
      canLeaveWizardStep(4, state({ action_type: 'SELL', sell_quantity_type: 'ALL_REMAINING' })),
    ).to.equal(true);
    expect(
      canLeaveWizardStep(
        4,
        state({ action_type: 'SELL', sell_quantity_type: 'PERCENTAGE', sell_quantity_value: null }),
      ),
    ).to.equal(false);
    expect(
      canLeaveWizardStep(
        4,
        state({ action_type: 'SELL', sell_quantity_type: 'FIXED_AMOUNT', sell_quantity_value: 10 }),
      ),
    ).to.equal(true);
  });

  it('offers the built-in 5% Fixed Stop Loss template, measured from the buy price', () => {
    const [template] = BUILT_IN_TEMPLATES;
    expect(template).to.deep.include({
      name: '5% Fixed Stop Loss',
      action_type: 'ALERT',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 5,
      value_type: 'PERCENT',
      reference: 'buy_price',
    });
  });

  it('offers the volatility stop template: a trailing 3 × ATR(22) from today’s price, sent with its period', () => {
    const template = BUILT_IN_TEMPLATES.find((t) => t.value_type === 'ATR')!;
    expect(template).to.deep.include({
      name: 'Volatility stop (3 × ATR(22))',
      action_type: 'ALERT',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 3,
      value_type: 'ATR',
      atr_period: 22,
      reference: 'current',
    });
    const state = {
      template_id: template.id,
      holdings: ['NSE:TCS'],
      scope: 'all' as const,
      account_id: null,
    };
    const [rule] = templateRules(template, state, () => ['zerodha', 'groww']);
    expect(rule).to.deep.include({
      symbol: 'TCS',
      rule_scope: 'all_holdings',
      trigger_value: 3,
      value_type: 'ATR',
      atr_period: 22,
      reference: 'current',
    });
    expect(bulkCreateRulesBody.safeParse({ rules: [rule] }).success).to.equal(true);
    // A template without a period sends none.
    expect(templateRules(BUILT_IN_TEMPLATES[0]!, state)[0]).to.not.have.property('atr_period');
  });

  it('the template dialog needs a template, a holding, and an account when specific', () => {
    const base = {
      template_id: 'builtin-fixed-stop-5',
      holdings: ['NSE:TCS'],
      scope: 'all' as const,
      account_id: null,
    };
    expect(templateDialogError({ ...base, template_id: null })).to.equal('Please choose a template');
    expect(templateDialogError({ ...base, holdings: [] })).to.equal('Please choose at least one holding');
    expect(templateDialogError({ ...base, scope: 'specific' })).to.equal('Please choose an account');
    expect(templateDialogError(base)).to.equal(null);
    const rules = templateRules(BUILT_IN_TEMPLATES[0]!, { ...base, holdings: ['NSE:TCS', 'BSE:SBIN'] });
    expect(rules.map((r) => [r.symbol, r.exchange, r.rule_scope, r.priority, r.is_active])).to.deep.equal([
      ['TCS', 'NSE', 'all_holdings', 1, true],
      ['SBIN', 'BSE', 'all_holdings', 1, true],
    ]);
  });

  it("measures a buy-price template from each account's own buy price: one rule per account holding it", () => {
    const base = { template_id: 'builtin-fixed-stop-5', scope: 'all' as const, account_id: null };
    const accounts: Record<string, string[]> = { 'NSE:INFY': ['zerodha', 'groww'], 'NSE:TCS': ['zerodha'] };
    const rules = templateRules(
      BUILT_IN_TEMPLATES[0]!,
      { ...base, holdings: ['NSE:INFY', 'NSE:TCS'] },
      (key) => accounts[key] ?? [],
    );
    expect(rules.map((r) => [r.symbol, r.rule_scope, r.target_account_id, r.reference])).to.deep.equal([
      ['INFY', 'specific_account', 'zerodha', 'buy_price'],
      ['INFY', 'specific_account', 'groww', 'buy_price'],
      ['TCS', 'all_holdings', null, 'buy_price'],
    ]);
    const one = templateRules(
      BUILT_IN_TEMPLATES[0]!,
      { ...base, scope: 'specific', account_id: 'groww', holdings: ['NSE:INFY'] },
      (key) => accounts[key] ?? [],
    );
    expect(one.map((r) => [r.rule_scope, r.target_account_id])).to.deep.equal([
      ['specific_account', 'groww'],
    ]);
  });
});
