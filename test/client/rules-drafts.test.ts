import { aggregateHoldings } from '@app/common/portfolio/aggregate';
import type { RawHolding, RuleCoverage } from '@app/common/portfolio/types';
import { noPriceReason, planSaveAll } from '@app/common/rules/index';
import { expect } from 'chai';
import { ApiError } from '../../client/src/api/errors.ts';
import {
  createRuleError,
  deleteRuleError,
  draftKey,
  draftPreview,
  draftRequest,
  draftSaveCheck,
  guardRule,
  newDraft,
  PRICE_DATA_GUIDANCE,
  priceGuardTargets,
  saveAllProblem,
  updateRuleError,
} from '../../client/src/routes/holdings/rules/ruleDrafts.ts';

const held = (symbol: string, account: string): RawHolding => ({
  id: `${symbol}-${account}`,
  symbol,
  exchange: 'NSE',
  quantity: 10,
  average_price: 100,
  current_price: 120,
  broker_account_id: account,
  broker_name: account,
  broker_type: 'CSV_IMPORT',
});

const target = { symbol: 'RELIANCE', exchange: 'NSE' as const, accountId: 'acc-1' };

describe('client: rule drafts', () => {
  it('starts every account row with an alert, trailing stop loss, 7 percent', () => {
    const draft = newDraft(target);
    expect(draft).to.deep.equal({
      key: 'NSE:RELIANCE@acc-1',
      symbol: 'RELIANCE',
      exchange: 'NSE',
      accountId: 'acc-1',
      triggerType: 'TRAILING_STOP_LOSS',
      valueType: 'PERCENT',
      triggerValue: '7',
      atrPeriod: '22',
    });
    expect(draftKey({ ...target, accountId: 'acc-2' })).to.not.equal(draft.key);
  });

  it('previews the trigger price from the live price, with the documented texts when it cannot', () => {
    const draft = newDraft(target);
    expect(draftPreview(draft, 1500)).to.include({ ok: true, triggerPrice: 1395 });
    expect(draftPreview({ ...draft, triggerType: 'TAKE_PROFIT' }, 1500)).to.include({ triggerPrice: 1605 });
    expect(draftPreview({ ...draft, valueType: 'ABSOLUTE', triggerValue: '50' }, 1500)).to.include({
      triggerPrice: 1450,
    });
    expect(draftPreview(draft, null)).to.include({
      ok: false,
      error: 'Current price is not available for this stock.',
    });
    expect(draftPreview({ ...draft, triggerValue: '' }, 1500)).to.include({
      error: 'Please enter a valid trigger value greater than 0',
    });
    expect(draftPreview({ ...draft, valueType: 'ABSOLUTE', triggerValue: '2000' }, 1500)).to.include({
      error: 'Invalid trigger price calculated. Please check your input.',
    });
    expect(draftPreview({ ...draft, triggerValue: '95' }, 1500)).to.include({
      error:
        "Rule is not allowed for this price. Trigger price must be between ₹150.00 and ₹3,000.00 based on current price (this rule's level would be ₹75.00)",
    });
  });

  it('sends an alert on that account, with the previewed trigger price', () => {
    expect(draftRequest(newDraft(target), 7, 1395)).to.deep.equal({
      symbol: 'RELIANCE',
      exchange: 'NSE',
      rule_scope: 'specific_account',
      target_account_id: 'acc-1',
      action_type: 'ALERT',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 7,
      value_type: 'PERCENT',
      computed_trigger_price: 1395,
    });
  });

  it("sends an ATR stop with its period and no level: the server sets it from the stock's history", () => {
    const draft = newDraft(target, guardRule('atr'));
    expect(draft).to.deep.include({
      triggerType: 'TRAILING_STOP_LOSS',
      valueType: 'ATR',
      triggerValue: '3',
      atrPeriod: '22',
    });
    const check = draftSaveCheck({ ...draft, atrPeriod: '14' }, 1500);
    expect(check).to.deep.equal({ ok: true, triggerValue: 3, triggerPrice: null });
    expect(draftRequest({ ...draft, atrPeriod: '14' }, 3, null)).to.deep.equal({
      symbol: 'RELIANCE',
      exchange: 'NSE',
      rule_scope: 'specific_account',
      target_account_id: 'acc-1',
      action_type: 'ALERT',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 3,
      value_type: 'ATR',
      atr_period: 14,
    });
    expect(draftSaveCheck({ ...draft, atrPeriod: '200' }, 1500)).to.deep.include({
      ok: false,
      error: 'An ATR stop takes a multiple from 0.5 to 10 and a period from 5 to 100 days',
    });
    expect(draftSaveCheck(draft, null)).to.deep.include({
      ok: false,
      error: 'Current price is not available for this stock.',
    });
    // Price Guard's default stays the 7 % trailing stop.
    expect(newDraft(target, guardRule('percent'))).to.deep.equal(newDraft(target));
  });

  it('Price Guard picks every account row without an active rule or a draft, in table order', () => {
    const rules: RuleCoverage[] = [
      {
        symbol: 'SBIN',
        exchange: 'NSE',
        is_active: true,
        rule_scope: 'specific_account',
        target_account_id: 'a',
      },
      { symbol: 'ITC', exchange: 'NSE', is_active: false, rule_scope: 'all_holdings' },
    ];
    const rows = aggregateHoldings(
      [held('SBIN', 'a'), held('SBIN', 'b'), held('ITC', 'a'), held('TCS', 'a')],
      rules,
    );
    const ordered = ['TCS', 'SBIN', 'ITC'].map((s) => rows.find((r) => r.symbol === s)!);
    const targets = priceGuardTargets(ordered, (key) => key === 'NSE:TCS@a');
    expect(targets.map((t) => `${t.symbol}@${t.accountId}`)).to.deep.equal(['SBIN@b', 'ITC@a']);
    expect(targets[0]!.rowKey).to.equal('NSE:SBIN');
  });

  it('Save All saves what it can and gives each other draft its reason', () => {
    const draft = (symbol: string, triggerValue: string, currentPrice: number | null) => ({
      ...newDraft({ ...target, symbol }),
      triggerValue,
      currentPrice,
    });
    expect(planSaveAll([draft('A', '', 100), draft('B', '0', 100)])).to.include({
      ok: false,
      error: 'No valid rules to save. Ensure trigger values are > 0.',
    });
    const plan = planSaveAll([draft('A', '7', null), draft('B', '', 100), draft('C', '7', 100)]);
    expect(plan.ok && plan.refused.map((r) => [r.draft.symbol, r.reason])).to.deep.equal([
      ['A', noPriceReason('A', true)],
    ]);
    expect(plan.ok && plan.rules.map((r) => r.draft.symbol)).to.deep.equal(['C']);
    const fine = planSaveAll([draft('C', '7', 100), draft('D', '', 100)]);
    expect(fine.ok && fine.skipped.map((d) => d.symbol)).to.deep.equal(['D']);
  });

  it('explains a failed Save All: the server list, guidance when prices are missing, else the fallback', () => {
    const noPrice = new ApiError(400, '2 of 3 rules could not be saved. Nothing was saved.', {
      fromServer: true,
      details: [
        'No price data available for INFY. Prices update every minute; please try again shortly.',
        'x',
      ],
    });
    expect(saveAllProblem(noPrice)).to.deep.equal({
      message: '2 of 3 rules could not be saved. Nothing was saved.',
      details: [noPrice.details[0]!, 'x'],
      guidance: PRICE_DATA_GUIDANCE,
    });
    const fetchFailed = new ApiError(502, 'Failed to fetch price data for TCS', { fromServer: true });
    expect(saveAllProblem(fetchFailed)).to.include({ guidance: PRICE_DATA_GUIDANCE });
    const single = new ApiError(400, 'Rule is not allowed for A', {
      fromServer: true,
      details: ['Rule is not allowed for A'],
    });
    expect(saveAllProblem(single)).to.deep.equal({
      message: 'Rule is not allowed for A',
      details: [],
      guidance: null,
    });
    expect(saveAllProblem(new ApiError(0, 'Network error: Unable to connect to server'))).to.deep.equal({
      message: 'Failed to save rules',
      details: [],
      guidance: null,
    });
    expect(saveAllProblem(new TypeError('boom')).message).to.equal('Failed to save rules');
  });

  it('uses the server sentence for a single save, delete or update, and the documented fallbacks', () => {
    const server = new ApiError(403, 'Rules can cover up to 50 holdings on the Basic tier.', {
      fromServer: true,
    });
    expect(createRuleError(server)).to.equal(server.message);
    expect(createRuleError(new ApiError(500, 'Something went wrong'))).to.equal('Failed to create rule');
    expect(deleteRuleError(new Error('x'))).to.equal('Failed to delete rule');
    expect(deleteRuleError(server)).to.equal(server.message);
    expect(updateRuleError(new Error('x'))).to.equal('Failed to update rule');
  });
});
