import { expect } from 'chai';
import { ATR_PROBLEM } from '../../common/src/rules/value-types.ts';
import {
  generatedName,
  initialQuickRule,
  quickRuleProblem,
  quickRuleRequest,
  withKind,
  withUnit,
  type QuickRuleForm,
} from '../../client/src/routes/holdings/rules/dialogs/quickRule.ts';

const form = (over: Partial<QuickRuleForm> = {}): QuickRuleForm => ({
  ...initialQuickRule('NSE:PXKITE'),
  ...over,
});

describe('client: New rule on one screen (issue #28 item 8)', () => {
  it('starts as a fixed stop at a price, with no name to type', () => {
    expect(initialQuickRule('NSE:PXKITE')).to.deep.equal({
      holding: 'NSE:PXKITE',
      accountId: null,
      trigger_type: 'FIXED_STOP_LOSS',
      value_type: 'PRICE',
      trigger_value: '',
      atr_period: '22',
      rule_name: '',
    });
  });

  it('names the rule after its level until a name is typed, and sends the name only when typed', () => {
    expect(generatedName(form())).to.equal(null);
    expect(generatedName(form({ trigger_value: '1400' }))).to.equal('Fixed stop loss at ₹1,400.00');
    const body = quickRuleRequest(form({ trigger_value: '1400' }), 1469.75);
    expect(body).to.deep.equal({
      symbol: 'PXKITE',
      exchange: 'NSE',
      rule_scope: 'all_holdings',
      target_account_id: null,
      action_type: 'ALERT',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: 1400,
      value_type: 'PRICE',
      computed_trigger_price: 1400,
    });
    expect(
      quickRuleRequest(form({ trigger_value: '1400', rule_name: ' Floor ', accountId: 'a1' }), 1469.75),
    ).to.deep.include({
      rule_name: 'Floor',
      rule_scope: 'specific_account',
      target_account_id: 'a1',
    });
  });

  it('checks the level as the server does, but lets a missing live price through', () => {
    expect(quickRuleProblem(form({ holding: '' }), 1469.75)).to.equal('Please choose a holding');
    expect(quickRuleProblem(form(), 1469.75)).to.equal('Please enter a valid trigger value greater than 0');
    expect(quickRuleProblem(form({ trigger_value: '1500' }), 1469.75)).to.equal(
      'The stop loss level ₹1,500.00 is at or above the current price ₹1,469.75; it would fire at once. Choose a lower level.',
    );
    expect(quickRuleProblem(form({ trigger_value: '1400' }), null)).to.equal(null);
  });

  it('falls back to percent when the kind becomes a trailing stop, and keeps a price for a target', () => {
    expect(withKind(form(), 'TRAILING_STOP_LOSS')).to.deep.include({ value_type: 'PERCENT' });
    expect(withKind(form(), 'TAKE_PROFIT')).to.deep.include({ value_type: 'PRICE' });
  });

  it('sends an ATR stop with its period, and refuses a period outside 5 to 100 days', () => {
    const atr = form({ trigger_type: 'TRAILING_STOP_LOSS', value_type: 'ATR', trigger_value: '3' });
    expect(quickRuleRequest({ ...atr, atr_period: '14' }, 1469.75)).to.deep.include({
      trigger_type: 'TRAILING_STOP_LOSS',
      value_type: 'ATR',
      trigger_value: 3,
      atr_period: 14,
    });
    expect(quickRuleProblem({ ...atr, atr_period: '14' }, 1469.75)).to.equal(null);
    expect(quickRuleProblem({ ...atr, atr_period: '3' }, 1469.75)).to.equal(ATR_PROBLEM);
    expect(quickRuleProblem({ ...atr, atr_period: '200' }, 1469.75)).to.equal(ATR_PROBLEM);
    expect(ATR_PROBLEM).to.equal(
      'An ATR stop takes a multiple from 0.5 to 10 and a period from 5 to 100 days',
    );
    expect(
      quickRuleRequest(form({ value_type: 'PERCENT', trigger_value: '5' }), 1469.75),
    ).not.to.have.property('atr_period');
  });

  it('puts the default multiple 3 in the value on switching to ATR, and keeps what is typed back in percent', () => {
    const percent = form({ trigger_type: 'TRAILING_STOP_LOSS', value_type: 'PERCENT', trigger_value: '8' });
    const atr = withUnit(percent, 'ATR');
    expect(atr).to.deep.include({ value_type: 'ATR', trigger_value: '3', atr_period: '22' });
    expect(withUnit({ ...atr, trigger_value: '2.5' }, 'PERCENT')).to.deep.include({
      value_type: 'PERCENT',
      trigger_value: '2.5',
    });
    expect(
      withUnit({ ...atr, trigger_value: '2.5' }, 'ATR'),
      'ATR to ATR keeps the multiple',
    ).to.deep.include({
      trigger_value: '2.5',
    });
  });
});
