/**
 * Issue 20's shared math: the distance to a rule's level (positive = not yet crossed), the
 * coverage count the dashboard, the Holdings filter and the API share, and the Price Guard
 * sentence an upload or a manual add shows.
 */
import { expect } from 'chai';
import { coverageSentence, holdingsCoverage, isUnprotected } from '../../common/src/portfolio/coverage.ts';
import { PRICE_GUARD_RULE, protectionSentence } from '../../common/src/rules/price-guard.ts';
import { DEFAULT_RULE_DRAFT } from '../../common/src/rules/draft.ts';
import { distanceToLevel } from '../../common/src/rules/trigger.ts';

describe('rules: distance to the level, coverage and the Price Guard summary (issue 20)', () => {
  it('measures the move still needed in % of the price: positive before a stop or target is crossed, negative past it', () => {
    expect(distanceToLevel({ triggerType: 'FIXED_STOP_LOSS', triggerPrice: 930 }, 1000)).to.equal(7);
    expect(distanceToLevel({ triggerType: 'TRAILING_STOP_LOSS', triggerPrice: 2334 }, 2410.5)).to.equal(3.17);
    expect(distanceToLevel({ triggerType: 'TAKE_PROFIT', triggerPrice: 1100 }, 1000)).to.equal(10);
    expect(distanceToLevel({ triggerType: 'FIXED_STOP_LOSS', triggerPrice: 930 }, 930)).to.equal(0);
    expect(distanceToLevel({ triggerType: 'FIXED_STOP_LOSS', triggerPrice: 930 }, 900)).to.equal(-3.33);
    expect(distanceToLevel({ triggerType: 'TAKE_PROFIT', triggerPrice: 1100 }, 1200)).to.equal(-8.33);
    expect(distanceToLevel({ direction: 'above', price: 1600 }, 1500)).to.equal(6.67);
    expect(distanceToLevel({ triggerType: 'FIXED_STOP_LOSS', triggerPrice: 930 }, null)).to.equal(null);
    expect(distanceToLevel({ triggerType: 'FIXED_STOP_LOSS', triggerPrice: 930 }, 0)).to.equal(null);
  });

  it('counts a holding once however many accounts hold it, protected only when every account is covered by an active rule', () => {
    const held = [
      { symbol: 'ITC', exchange: 'NSE' as const, broker_account_id: 'z' },
      { symbol: 'ITC', exchange: 'NSE' as const, broker_account_id: 'k' },
      { symbol: 'TCS', exchange: 'NSE' as const, broker_account_id: 'z' },
      { symbol: 'TCS', exchange: 'BSE' as const, broker_account_id: 'z' },
    ];
    const forAccount = (symbol: string, account: string, active = true) => ({
      symbol,
      exchange: 'NSE' as const,
      is_active: active,
      rule_scope: 'specific_account',
      target_account_id: account,
    });
    expect(holdingsCoverage(held, [])).to.deep.equal({ holdings: 3, protected: 0 });
    expect(holdingsCoverage(held, [forAccount('ITC', 'z'), forAccount('TCS', 'z')])).to.deep.equal({
      holdings: 3,
      protected: 1,
    });
    expect(
      holdingsCoverage(held, [forAccount('ITC', 'z'), forAccount('ITC', 'k'), forAccount('TCS', 'z', false)]),
    ).to.deep.equal({ holdings: 3, protected: 1 });
    const everywhere = {
      symbol: 'ITC',
      exchange: 'NSE' as const,
      is_active: true,
      rule_scope: 'all_holdings',
    };
    expect(holdingsCoverage(held, [everywhere])).to.deep.equal({ holdings: 3, protected: 1 });
    expect(coverageSentence({ holdings: 15, protected: 12 })).to.equal('12 of 15 holdings protected');
    expect(coverageSentence({ holdings: 1, protected: 0 })).to.equal('0 of 1 holding protected');
    expect(
      isUnprotected({ accounts: [{ active_rules_count: 1 }, { active_rules_count: 0 }] } as never),
    ).to.equal(true);
    expect(isUnprotected({ accounts: [{ active_rules_count: 2 }] } as never)).to.equal(false);
  });

  it('gives new holdings the rule Price Guard drafts, and says what it did and why some stayed unprotected', () => {
    expect(PRICE_GUARD_RULE).to.deep.equal({ ...DEFAULT_RULE_DRAFT, reference: 'current' });
    expect(PRICE_GUARD_RULE).to.include({
      action_type: 'ALERT',
      trigger_type: 'TRAILING_STOP_LOSS',
      trigger_value: 7,
    });
    expect(protectionSentence({ protected: 3, no_price: 0, over_limit: 0 })).to.equal(
      '3 new holdings protected by Price Guard.',
    );
    expect(protectionSentence({ protected: 1, no_price: 1, over_limit: 2 })).to.equal(
      '1 new holding protected by Price Guard. 1 new holding not protected yet: no price for it yet; it gets its rule with its first price. ' +
        '2 new holdings left unprotected: your rules already cover as many holdings as your tier allows.',
    );
    expect(protectionSentence({ protected: 0, no_price: 0, over_limit: 0 })).to.equal('');
  });
});
