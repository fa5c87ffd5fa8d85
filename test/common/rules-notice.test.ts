import { isProtectiveAlert, noticeKey, noticeSentence } from '@app/common/rules/index';
import { expect } from 'chai';

describe('common: notices (one stock, one alert)', () => {
  it('names each account with its quantity, the largest first, and the value in whole rupees', () => {
    const stop = 'FIXED_STOP_LOSS';
    expect(
      noticeSentence({
        symbol: 'HDFCBANK',
        ltp: 1612.4,
        positions: [
          { triggerType: stop, account: 'Manual', quantity: 10 },
          { triggerType: 'TRAILING_STOP_LOSS', account: 'Zerodha', quantity: 40 },
          { triggerType: stop, account: 'ICICI Direct', quantity: 25 },
        ],
      }),
    ).to.equal(
      'HDFCBANK fell to ₹1,612.40: your stops in Zerodha (40 sh), ICICI Direct (25 sh) and Manual (10 sh) · ₹1,20,930',
    );
  });

  it('says what fired when the kinds differ, and leaves out what it does not know', () => {
    expect(
      noticeSentence({
        symbol: 'TCS',
        ltp: 4100,
        positions: [
          { triggerType: 'TAKE_PROFIT', account: 'Groww', quantity: null },
          { triggerType: 'PRICE_ABOVE', account: null, quantity: null },
        ],
      }),
    ).to.equal('TCS rose to ₹4,100.00: your profit target and price alert in Groww');
  });

  it('keeps stops and targets of one stock apart, and only stops are protective', () => {
    const base = { userId: 'u1', exchange: 'NSE', symbol: 'INFY' };
    expect(noticeKey({ ...base, triggerType: 'FIXED_STOP_LOSS' })).to.equal(
      noticeKey({ ...base, triggerType: 'PRICE_BELOW' }),
    );
    expect(noticeKey({ ...base, triggerType: 'FIXED_STOP_LOSS' })).not.to.equal(
      noticeKey({ ...base, triggerType: 'TAKE_PROFIT' }),
    );
    expect(noticeKey({ ...base, triggerType: 'TAKE_PROFIT' })).not.to.equal(
      noticeKey({ ...base, exchange: 'BSE', triggerType: 'TAKE_PROFIT' }),
    );
    expect(
      ['FIXED_STOP_LOSS', 'TRAILING_STOP_LOSS', 'TAKE_PROFIT', 'PRICE_BELOW'].map(isProtectiveAlert),
    ).to.deep.equal([true, true, false, false]);
  });
});
