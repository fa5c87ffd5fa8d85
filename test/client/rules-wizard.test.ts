import { expect } from 'chai';
import {
  initialWizardForm,
  splitHoldingKey,
  wizardProblem,
  wizardRequest,
  type WizardForm,
} from '../../client/src/routes/holdings/rules/dialogs/wizardForm.ts';

const form = (over: Partial<WizardForm> = {}): WizardForm => ({ ...initialWizardForm('NSE:INFY'), ...over });

describe('client: Create Position Rule wizard', () => {
  it('starts from the defaults: trailing stop loss 10, alert, all holdings, market, priority 1', () => {
    expect(initialWizardForm('NSE:INFY')).to.deep.include({
      rule_name: '',
      holding: 'NSE:INFY',
      rule_scope: 'all_holdings',
      target_account_id: null,
      action_type: 'ALERT',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: '10',
      value_type: 'PERCENT',
      sell_quantity_type: 'ALL_REMAINING',
      order_type: 'MARKET',
      priority: 1,
    });
  });

  it('stops each step on its own problem', () => {
    expect(wizardProblem(1, form(), 1500)).to.equal('Please enter a rule name');
    expect(wizardProblem(1, form({ rule_name: 'x', holding: '' }), 1500)).to.equal('Please choose a holding');
    expect(wizardProblem(1, form({ rule_name: ' Guard ' }), 1500)).to.equal(null);
    expect(wizardProblem(2, form({ rule_scope: 'specific_account' }), 1500)).to.equal(
      'Please choose all holdings or an account',
    );
    expect(wizardProblem(2, form({ rule_scope: 'specific_account', target_account_id: 'a' }), 1500)).to.equal(
      null,
    );
    expect(wizardProblem(3, form({ trigger_value: '0' }), 1500)).to.equal(
      'Please enter a valid trigger value greater than 0',
    );
    expect(wizardProblem(3, form({ trigger_value: '95' }), 1500)).to.match(
      /^Rule is not allowed for this price/,
    );
    // No live price yet: the server arms it from its own quote.
    expect(wizardProblem(3, form(), null)).to.equal(null);
    expect(wizardProblem(4, form(), 1500)).to.equal(null);
  });

  it('builds the request: all holdings drop the account, the preview price rides along', () => {
    const body = wizardRequest(
      form({ rule_name: ' INFY target ', trigger_type: 'TAKE_PROFIT', target_account_id: 'a' }),
      1500,
    );
    expect(body).to.deep.include({
      symbol: 'INFY',
      exchange: 'NSE',
      rule_name: 'INFY target',
      rule_scope: 'all_holdings',
      target_account_id: null,
      action_type: 'ALERT',
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 10,
      computed_trigger_price: 1650,
    });
    const specific = wizardRequest(form({ rule_scope: 'specific_account', target_account_id: 'a' }), null);
    expect(specific.target_account_id).to.equal('a');
    expect(specific).to.not.have.property('computed_trigger_price');
    expect(splitHoldingKey('BSE:M&M')).to.deep.equal({ exchange: 'BSE', symbol: 'M&M' });
  });

  it('sends re-arming only when chosen, and stops step 3 on a percent outside 0.5 to 50', () => {
    expect(wizardRequest(form(), 1500)).to.not.have.property('rearm');
    const rearming = form({ rearm: 'after_recovery', rearm_percent: '4.5' });
    expect(wizardRequest(rearming, 1500)).to.deep.include({ rearm: 'after_recovery', rearm_percent: 4.5 });
    expect(wizardProblem(3, rearming, 1500)).to.equal(null);
    for (const rearm_percent of ['', '0.4', '51'])
      expect(wizardProblem(3, form({ rearm: 'after_recovery', rearm_percent }), 1500)).to.equal(
        'Re-arm percent must be from 0.5 to 50',
      );
  });
});
