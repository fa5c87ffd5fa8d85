import type { LiveQuote } from '@app/common/realtime/events';
import { expect } from 'chai';
import { instrumentKey } from '@app/common/market/tick-batch';
import { MAX_SERIES_POINTS, QuoteStore } from '../../client/src/live/quoteStore.ts';

const quote = (symbol: string, ltp: number, asOf: number, prevClose: number | null = 100): LiveQuote => ({
  symbol,
  exchange: 'NSE',
  ltp,
  prevClose,
  change: prevClose === null ? null : ltp - prevClose,
  changePercent: null,
  asOf,
  delayMinutes: 0,
});

describe('client: live quote store', () => {
  it('keys instruments as EXCHANGE:SYMBOL, like the server', () => {
    expect(instrumentKey('NSE', 'M&M')).to.equal('NSE:M&M');
  });

  it('wakes only the listeners of instruments that changed, and whole-store listeners once per batch', () => {
    const store = new QuoteStore();
    const calls: string[] = [];
    store.subscribeKey('NSE:RELIANCE', () => calls.push('RELIANCE'));
    store.subscribeKey('NSE:TCS', () => calls.push('TCS'));
    store.subscribe(() => calls.push('all'));
    store.applyBatch({ at: 1, quotes: [quote('RELIANCE', 101, 1000)] });
    expect(calls).to.deep.equal(['RELIANCE', 'all']);
    calls.length = 0;
    store.applyBatch({ at: 2, quotes: [quote('RELIANCE', 102, 2000), quote('TCS', 3400, 2000)] });
    expect(calls).to.deep.equal(['RELIANCE', 'TCS', 'all']);
  });

  it('keeps the same quote object for an unchanged instrument (so memoised rows skip rendering)', () => {
    const store = new QuoteStore();
    store.applyBatch({ at: 1, quotes: [quote('RELIANCE', 101, 1000), quote('TCS', 3400, 1000)] });
    const tcs = store.get('NSE:TCS');
    const version = store.getVersion();
    store.applyBatch({ at: 2, quotes: [quote('RELIANCE', 102, 2000), quote('TCS', 3400, 1000)] });
    expect(store.get('NSE:TCS')).to.equal(tcs);
    expect(store.get('NSE:RELIANCE')?.ltp).to.equal(102);
    expect(store.getVersion()).to.equal(version + 1);
  });

  it('never lets an older snapshot overwrite a newer live price', () => {
    const store = new QuoteStore();
    store.applyBatch({ at: 5, quotes: [quote('RELIANCE', 105, 5000)] });
    store.seed([quote('RELIANCE', 99, 4000)]);
    expect(store.get('NSE:RELIANCE')?.ltp).to.equal(105);
    store.seed([quote('RELIANCE', 106, 6000)]);
    expect(store.get('NSE:RELIANCE')?.ltp).to.equal(106);
    expect(store.newestQuote()).to.deep.equal({ asOf: 6000, delayMinutes: 0 });
  });

  it('does not notify anyone when nothing changed', () => {
    const store = new QuoteStore();
    store.applyBatch({ at: 1, quotes: [quote('RELIANCE', 101, 1000)] });
    let calls = 0;
    store.subscribe(() => calls++);
    store.applyBatch({ at: 1, quotes: [quote('RELIANCE', 101, 1000)] });
    store.applyBatch({ at: 1, quotes: [] });
    expect(calls).to.equal(0);
  });

  it('records a bounded price series per instrument', () => {
    const store = new QuoteStore();
    for (let i = 1; i <= MAX_SERIES_POINTS + 20; i++)
      store.applyBatch({ at: i, quotes: [quote('INFY', 1500 + i, i * 1000)] });
    const series = store.seriesOf('NSE:INFY');
    expect(series).to.have.length(MAX_SERIES_POINTS);
    expect(series[series.length - 1]).to.deep.equal({
      t: (MAX_SERIES_POINTS + 20) * 1000,
      ltp: 1500 + MAX_SERIES_POINTS + 20,
    });
    expect(store.seriesOf('NSE:UNKNOWN')).to.deep.equal([]);
  });

  it('stops notifying after unsubscribe, and forgets everything on clear', () => {
    const store = new QuoteStore();
    let calls = 0;
    const off = store.subscribeKey('NSE:TCS', () => calls++);
    store.applyBatch({ at: 1, quotes: [quote('TCS', 3400, 1000)] });
    off();
    store.applyBatch({ at: 2, quotes: [quote('TCS', 3401, 2000)] });
    expect(calls).to.equal(1);
    store.clear();
    expect(store.get('NSE:TCS')).to.equal(undefined);
    expect(store.newestQuote()).to.equal(null);
  });
});
