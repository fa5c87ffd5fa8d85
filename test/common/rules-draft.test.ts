import { expect } from 'chai';
import { updateAlertBody } from '../../common/src/api/price-alerts.ts';
import { createRuleBody, bulkCreateRulesBody, updateRuleBody } from '../../common/src/api/rules.ts';
import {
  crossingMessage,
  describeRule,
  gappedThrough,
  triggerTypeLabel,
} from '../../common/src/rules/describe.ts';
import { isGeneratedName, renamedAfterEdit } from '../../common/src/rules/naming.ts';
import {
  DEFAULT_RULE_DRAFT,
  parseTriggerValue,
  planSaveAll,
  sanitizeTriggerInput,
  validateRuleDraft,
} from '../../common/src/rules/draft.ts';
import {
  istMonthStart,
  nextIstMonthStart,
  TIER_LIMITS,
  holdingsLimitMessage,
} from '../../common/src/rules/tiers.ts';

describe('rules: drafts and Save All', () => {
  const draft = { triggerType: 'TRAILING_STOP_LOSS' as const, valueType: 'PERCENT' as const };

  it('starts every account row with alert, trailing stop loss, 7 percent', () => {
    expect(DEFAULT_RULE_DRAFT).to.deep.equal({
      action_type: 'ALERT',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 7,
      value_type: 'PERCENT',
    });
  });

  it('checks value, price, trigger and bounds in order, with the documented texts', () => {
    for (const triggerValue of [0, -1, '', 'abc', null, undefined]) {
      expect(validateRuleDraft({ ...draft, triggerValue, currentPrice: 100 })).to.deep.include({
        ok: false,
        error: 'Please enter a valid trigger value greater than 0',
      });
    }
    for (const currentPrice of [null, undefined, 0, -5]) {
      expect(validateRuleDraft({ ...draft, triggerValue: 7, currentPrice })).to.deep.include({
        ok: false,
        error: 'Current price is not available for this stock.',
      });
    }
    expect(
      validateRuleDraft({
        triggerType: 'FIXED_STOP_LOSS',
        valueType: 'ABSOLUTE',
        triggerValue: 100,
        currentPrice: 100,
      }),
    ).to.deep.include({ ok: false, error: 'Invalid trigger price calculated. Please check your input.' });
    expect(validateRuleDraft({ ...draft, triggerValue: 95, currentPrice: 2500 })).to.deep.include({
      ok: false,
      error:
        "Rule is not allowed for this price. Trigger price must be between ₹250.00 and ₹5,000.00 based on current price (this rule's level would be ₹125.00)",
    });
    expect(
      validateRuleDraft({
        triggerType: 'TAKE_PROFIT',
        valueType: 'PERCENT',
        triggerValue: 101,
        currentPrice: 2500,
      }),
    ).to.deep.include({ ok: false, problem: 'bounds' });
    expect(validateRuleDraft({ ...draft, triggerValue: '7', currentPrice: 2457.35 })).to.deep.equal({
      ok: true,
      triggerValue: 7,
      triggerPrice: 2285.34,
      referencePrice: 2457.35,
    });
  });

  it('accepts the exact bounds and measures from a buy price when given one', () => {
    expect(validateRuleDraft({ ...draft, triggerValue: 90, currentPrice: 1000 })).to.deep.include({
      ok: true,
    });
    expect(
      validateRuleDraft({
        triggerType: 'TAKE_PROFIT',
        valueType: 'PERCENT',
        triggerValue: 100,
        currentPrice: 1000,
      }),
    ).to.deep.include({ ok: true, triggerPrice: 2000 });
    expect(
      validateRuleDraft({
        triggerType: 'FIXED_STOP_LOSS',
        valueType: 'PERCENT',
        triggerValue: 5,
        currentPrice: 1000,
        referencePrice: 800,
      }),
    ).to.deep.include({ ok: true, triggerPrice: 760 });
  });

  it('refuses a level the price has already crossed, naming both (it would fire at once)', () => {
    const fromBuy = (
      triggerType: 'FIXED_STOP_LOSS' | 'TRAILING_STOP_LOSS' | 'TAKE_PROFIT',
      current: number,
    ) =>
      validateRuleDraft({
        triggerType,
        valueType: 'PERCENT',
        triggerValue: 5,
        currentPrice: current,
        referencePrice: 1000,
      });
    expect(fromBuy('FIXED_STOP_LOSS', 398.2)).to.deep.equal({
      ok: false,
      problem: 'fires_at_once',
      error:
        'The stop loss level ₹950.00 is at or above the current price ₹398.20; it would fire at once. Choose a lower level.',
    });
    expect(fromBuy('FIXED_STOP_LOSS', 950)).to.deep.include({ ok: false, problem: 'fires_at_once' });
    expect(fromBuy('FIXED_STOP_LOSS', 950.05)).to.deep.include({ ok: true, triggerPrice: 950 });
    expect(fromBuy('TRAILING_STOP_LOSS', 900)).to.deep.include({
      error:
        'The trailing stop level ₹950.00 is at or above the current price ₹900.00; it would fire at once. Choose a lower level.',
    });
    expect(fromBuy('TAKE_PROFIT', 1200)).to.deep.include({
      error:
        'The take profit level ₹1,050.00 is at or below the current price ₹1,200.00; it would fire at once. Choose a higher level.',
    });
    const plan = planSaveAll([
      {
        symbol: 'IDEA',
        triggerType: 'FIXED_STOP_LOSS',
        valueType: 'PERCENT',
        triggerValue: 5,
        currentPrice: 5,
        referencePrice: 7.41,
      },
    ]);
    expect(plan.ok && plan.refused.map((r) => r.reason)).to.deep.equal([
      'IDEA: The stop loss level ₹7.04 is at or above the current price ₹5.00; it would fire at once. Choose a lower level.',
    ]);
  });

  it('renames a generated name when the trigger is edited, never a typed one', () => {
    const seven = {
      trigger_type: 'TRAILING_STOP_LOSS' as const,
      trigger_value: 7,
      value_type: 'PERCENT' as const,
    };
    const twelve = { ...seven, trigger_value: 12 };
    expect(renamedAfterEdit('Trailing stop loss 7%', seven, twelve)).to.equal('Trailing stop loss 12%');
    expect(renamedAfterEdit('My guard', seven, twelve)).to.equal('My guard');
    const template = {
      trigger_type: 'FIXED_STOP_LOSS' as const,
      trigger_value: 5,
      value_type: 'PERCENT' as const,
    };
    expect(renamedAfterEdit('5% Fixed Stop Loss', template, { ...template, trigger_value: 8 })).to.equal(
      'Fixed stop loss 8%',
    );
  });

  it("tells the app's names of a rule from one the user typed", () => {
    const five = {
      trigger_type: 'FIXED_STOP_LOSS' as const,
      trigger_value: 5,
      value_type: 'PERCENT' as const,
    };
    expect(isGeneratedName('Fixed stop loss 5%', five)).to.equal(true);
    expect(isGeneratedName('5% Fixed Stop Loss', five)).to.equal(true);
    expect(isGeneratedName('Fixed stop loss 8%', five)).to.equal(false);
    expect(isGeneratedName('My guard', five)).to.equal(false);
  });

  it('keeps digits and one dot in the trigger input', () => {
    expect(sanitizeTriggerInput('7a.5.1%')).to.equal('7.51');
    expect(sanitizeTriggerInput('-12')).to.equal('12');
    expect(parseTriggerValue('7.')).to.equal(7);
    expect(parseTriggerValue('.5')).to.equal(0.5);
    expect(Number.isNaN(parseTriggerValue('1e3'))).to.equal(true);
  });

  it('Save All skips empty drafts, refuses when none remain, and saves what it can', () => {
    const empty = planSaveAll([{ symbol: 'TCS', ...draft, triggerValue: '', currentPrice: 100 }]);
    expect(empty).to.deep.include({
      ok: false,
      error: 'No valid rules to save. Ensure trigger values are > 0.',
    });

    const plan = planSaveAll([
      { symbol: 'RELIANSE', ...draft, triggerValue: 7, currentPrice: null, listed: false },
      { symbol: 'WIPRO', ...draft, triggerValue: 7, currentPrice: null },
      { symbol: 'TCS', ...draft, triggerValue: 0, currentPrice: 3000 },
      {
        symbol: 'INFY',
        triggerType: 'FIXED_STOP_LOSS',
        valueType: 'ABSOLUTE',
        triggerValue: 2000,
        currentPrice: 1500,
      },
      { symbol: 'SBIN', ...draft, triggerValue: 95, currentPrice: 800 },
      { symbol: 'ITC', ...draft, triggerValue: 7, currentPrice: 400 },
    ]);
    expect(plan.ok).to.equal(true);
    if (!plan.ok) return;
    expect(plan.rules.map((r) => [r.draft.symbol, r.triggerPrice])).to.deep.equal([['ITC', 372]]);
    expect(plan.skipped.map((d) => d.symbol)).to.deep.equal(['TCS']);
    expect(plan.refused.map((r) => r.reason)).to.deep.equal([
      'no price for RELIANSE: it is not in the exchange list',
      'no price for WIPRO yet: its first price usually comes within a minute',
      'Invalid trigger price calculated for INFY',
      "Rule is not allowed for SBIN. Trigger price must be between ₹80.00 and ₹1,600.00 based on current price (this rule's level would be ₹40.00)",
    ]);
  });

  it('Save All sends an ATR stop with a price without a level (the server sets it), and refuses one it cannot send', () => {
    const atr = { triggerType: 'TRAILING_STOP_LOSS' as const, valueType: 'ATR' as const };
    const plan = planSaveAll([
      { symbol: 'TCS', ...atr, triggerValue: '3', atrPeriod: '22', currentPrice: 3250 },
      { symbol: 'INFY', ...atr, triggerValue: 2.5, currentPrice: 1580 },
      { symbol: 'WIPRO', ...atr, triggerValue: '3', atrPeriod: '22', currentPrice: null },
      { symbol: 'SBIN', ...atr, triggerValue: '20', atrPeriod: '22', currentPrice: 800 },
      { symbol: 'ITC', ...atr, triggerValue: '3', atrPeriod: '3', currentPrice: 412 },
      {
        symbol: 'HDFCBANK',
        triggerType: 'TAKE_PROFIT',
        valueType: 'ATR',
        triggerValue: '3',
        currentPrice: 1010,
      },
    ]);
    expect(plan.ok).to.equal(true);
    if (!plan.ok) return;
    expect(plan.rules.map((r) => [r.draft.symbol, r.triggerValue, r.triggerPrice])).to.deep.equal([
      ['TCS', 3, null],
      ['INFY', 2.5, null],
    ]);
    expect(plan.refused.map((r) => r.reason)).to.deep.equal([
      'no price for WIPRO yet: its first price usually comes within a minute',
      'SBIN: An ATR stop takes a multiple from 0.5 to 10 and a period from 5 to 100 days',
      'ITC: An ATR stop takes a multiple from 0.5 to 10 and a period from 5 to 100 days',
      'HDFCBANK: An ATR level is for stop losses: choose Fixed stop loss or Trailing stop loss, or set the take profit in percent, rupees or a price.',
    ]);
    // A form's preview still cannot show the rupees: only a save gets the level.
    expect(validateRuleDraft({ ...atr, triggerValue: '3', currentPrice: 3250 })).to.deep.include({
      ok: false,
      problem: 'price',
    });
  });

  it('describes rules and crossings in words', () => {
    expect(
      describeRule({ trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 7, value_type: 'PERCENT' }),
    ).to.equal('Trailing stop loss 7%');
    expect(
      describeRule({ trigger_type: 'FIXED_STOP_LOSS', trigger_value: 50, value_type: 'ABSOLUTE' }),
    ).to.equal('Fixed stop loss ₹50.00');
    expect(
      crossingMessage({
        symbol: 'RELIANCE',
        triggerType: 'TRAILING_STOP_LOSS',
        ltp: 2301.5,
        triggerPrice: 2310,
      }),
    ).to.equal('RELIANCE fell to ₹2,301.50, at or below your trailing stop at ₹2,310.00');
    expect(
      crossingMessage({ symbol: 'INFY', triggerType: 'TAKE_PROFIT', ltp: 1760, triggerPrice: 1750 }),
    ).to.equal('INFY rose to ₹1,760.00, at or above your profit target at ₹1,750.00');
    expect(triggerTypeLabel('TRAILING_STOP_LOSS')).to.equal('TRAILING STOP LOSS');
  });

  it('says an alert gapped through when the price is more than 1 % past the level', () => {
    const stop = { symbol: 'RELIANCE', triggerType: 'FIXED_STOP_LOSS' as const, triggerPrice: 950 };
    // 940.5 is exactly 1 % under 950: still an ordinary crossing.
    expect(crossingMessage({ ...stop, ltp: 940.5 })).to.equal(
      'RELIANCE fell to ₹940.50, at or below your stop loss at ₹950.00',
    );
    expect(crossingMessage({ ...stop, ltp: 930 })).to.equal(
      'RELIANCE gapped through your stop loss: level ₹950.00, price ₹930.00',
    );
    expect(
      crossingMessage({ symbol: 'INFY', triggerType: 'TAKE_PROFIT', triggerPrice: 1100, ltp: 1150 }),
    ).to.equal('INFY gapped through your profit target: level ₹1,100.00, price ₹1,150.00');
    expect(gappedThrough({ triggerType: 'PRICE_BELOW', triggerPrice: 100, ltp: 98.99 })).to.equal(true);
    expect(gappedThrough({ triggerType: 'PRICE_ABOVE', triggerPrice: 100, ltp: 98.99 })).to.equal(false);
  });

  it('counts the quota in IST calendar months and states the tier limits', () => {
    // 31 Jan 2026 20:00 UTC is 1 Feb 01:30 IST.
    expect(istMonthStart(Date.UTC(2026, 0, 31, 20)).toISOString()).to.equal('2026-01-31T18:30:00.000Z');
    expect(istMonthStart(Date.UTC(2026, 0, 31, 18, 29)).toISOString()).to.equal('2025-12-31T18:30:00.000Z');
    expect(nextIstMonthStart(Date.UTC(2026, 11, 15)).toISOString()).to.equal('2026-12-31T18:30:00.000Z');
    expect(TIER_LIMITS.basic).to.deep.equal({ holdings: 50, monthlyEmails: 5, rules: 500, priceAlerts: 100 });
    expect(TIER_LIMITS.advanced).to.deep.include({ rules: 2000, priceAlerts: 300 });
    expect(TIER_LIMITS.advanced.holdings).to.equal(200);
    expect(TIER_LIMITS.advanced.monthlyEmails).to.equal(Infinity);
    expect(holdingsLimitMessage('basic')).to.match(/up to 50 holdings.*Advanced tier/);
  });

  it('request schemas: defaults, SELL refused, account required, bulk as a list', () => {
    const parsed = createRuleBody.parse({
      symbol: ' reliance ',
      trigger_type: 'FIXED_STOP_LOSS',
      trigger_value: '5',
    });
    expect(parsed).to.deep.include({
      symbol: 'RELIANCE',
      exchange: 'NSE',
      rule_scope: 'all_holdings',
      action_type: 'ALERT',
      value_type: 'PERCENT',
      trigger_value: 5,
      reference: 'current',
      order_type: 'MARKET',
      priority: 1,
    });
    const sell = createRuleBody.safeParse({
      symbol: 'TCS',
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 5,
      action_type: 'SELL',
    });
    expect(sell.success).to.equal(false);
    expect(sell.error?.issues[0]?.message).to.equal('Automatic sell orders are coming soon');
    const noAccount = createRuleBody.safeParse({
      symbol: 'TCS',
      trigger_type: 'TAKE_PROFIT',
      trigger_value: 5,
      rule_scope: 'specific',
    });
    expect(noAccount.error?.issues[0]?.message).to.equal(
      'Please choose an account for an account-specific rule',
    );
    const zero = createRuleBody.safeParse({ symbol: 'TCS', trigger_type: 'TAKE_PROFIT', trigger_value: 0 });
    expect(zero.error?.issues[0]?.message).to.equal('Please enter a valid trigger value greater than 0');
    const bulk = bulkCreateRulesBody.parse([
      { symbol: 'TCS', trigger_type: 'TAKE_PROFIT', trigger_value: 5, rule_scope: 'all' },
    ]);
    expect(bulk.rules[0]!.rule_scope).to.equal('all_holdings');
    expect(updateRuleBody.safeParse({}).success).to.equal(false);
    expect(updateRuleBody.safeParse({ action_type: 'SELL' }).success).to.equal(false);
    expect(updateAlertBody.safeParse({ read: true }).success).to.equal(true);
  });
});
