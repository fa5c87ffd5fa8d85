/** The semantics both market buses share, run against each implementation. */
import { expect } from 'chai';
import type { FeedCredentials } from '@app/common/market/feed-credentials';
import { MAX_QUOTES_PER_BATCH, type TickBatch } from '@app/common/market/tick-batch';
import type { MarketBus } from '../../streamer/src/bus/types.ts';
import { sleep, waitFor } from './helpers.ts';

export interface BusUnderTest {
  bus: MarketBus;
  /** Resolves once `count` subscriptions are live (Redis subscribes asynchronously). */
  subscribed(count: number): Promise<void>;
}

/** A valid batch with one quote per symbol (NSE). */
export function sampleBatch(id: string, prices: Record<string, number>): TickBatch {
  return {
    v: 1,
    id,
    at: Date.now(),
    source: 'test',
    quotes: Object.entries(prices).map(([symbol, ltp]) => ({
      symbol,
      exchange: 'NSE',
      ltp,
      prevClose: 100,
      change: Math.round((ltp - 100) * 100) / 100,
      changePercent: Math.round((ltp - 100) * 100) / 100,
      asOf: 1_780_000_000_000,
      delayMinutes: 0,
    })),
  };
}

/** Defines the shared bus tests; `setup` gives a fresh, empty bus per test. */
export function describeBusContract(setup: () => BusUnderTest): void {
  let t: BusUnderTest;
  beforeEach(() => {
    t = setup();
  });

  it('delivers exactly the published batch to every subscriber', async () => {
    const a: TickBatch[] = [];
    const b: TickBatch[] = [];
    t.bus.onBatch((batch) => void a.push(batch));
    t.bus.onBatch((batch) => void b.push(batch));
    await t.subscribed(1);
    const batch = sampleBatch('1-1', { RELIANCE: 1480.5, TCS: 3250 });
    await t.bus.publishBatch(batch);
    await waitFor('both subscribers', () => a.length === 1 && b.length === 1);
    expect(a[0]).to.deep.equal(batch);
    expect(b[0]).to.deep.equal(batch);
  });

  it('never delivers inside publishBatch', async () => {
    const seen: TickBatch[] = [];
    t.bus.onBatch((batch) => void seen.push(batch));
    await t.subscribed(1);
    const publishing = t.bus.publishBatch(sampleBatch('1-1', { SBIN: 960 }));
    expect(seen).to.have.length(0);
    await publishing;
    await waitFor('delivery', () => seen.length === 1);
  });

  it('stops delivering after unsubscribe', async () => {
    const seen: string[] = [];
    const stop = t.bus.onBatch((batch) => void seen.push(batch.id));
    const keep: string[] = [];
    t.bus.onBatch((batch) => void keep.push(batch.id));
    await t.subscribed(1);
    await t.bus.publishBatch(sampleBatch('1-1', { SBIN: 960 }));
    await waitFor('first', () => seen.length === 1 && keep.length === 1);
    stop();
    await t.bus.publishBatch(sampleBatch('1-2', { SBIN: 961 }));
    await waitFor('second for the remaining subscriber', () => keep.length === 2);
    await sleep(50);
    expect(seen).to.deep.equal(['1-1']);
  });

  it('keeps delivering to others when a handler throws or rejects', async () => {
    const seen: string[] = [];
    t.bus.onBatch(() => {
      throw new Error('handler bug');
    });
    t.bus.onBatch(async () => Promise.reject(new Error('async handler bug')));
    t.bus.onBatch((batch) => void seen.push(batch.id));
    await t.subscribed(1);
    await t.bus.publishBatch(sampleBatch('1-1', { SBIN: 960 }));
    await waitFor('the healthy handler', () => seen.length === 1);
  });

  it('rejects an invalid batch at the publishing end', async () => {
    const bad = { ...sampleBatch('1-1', { SBIN: 960 }), v: 2 } as unknown as TickBatch;
    let failed = false;
    await t.bus.publishBatch(bad).catch(() => (failed = true));
    expect(failed).to.equal(true);
  });

  it('drops a quote that breaks the contract, not its batch, at the publishing end', async () => {
    const seen: TickBatch[] = [];
    t.bus.onBatch((batch) => void seen.push(batch));
    await t.subscribed(1);
    const batch = sampleBatch('1-1', { ['A'.repeat(41)]: 10, SBIN: 960, TCS: -5 });
    await t.bus.publishBatch(batch);
    await waitFor('the batch', () => seen.length === 1);
    expect(seen[0]!.quotes.map((q) => q.symbol)).to.deep.equal(['SBIN']);
  });

  it('refuses a batch larger than one message can carry, so the streamer splits it', async () => {
    const prices = Object.fromEntries(
      Array.from({ length: MAX_QUOTES_PER_BATCH + 1 }, (_, i) => [`S${i}`, 100]),
    );
    let failed = false;
    await t.bus.publishBatch(sampleBatch('1-1', prices)).catch(() => (failed = true));
    expect(failed).to.equal(true);
  });

  it('keeps the watch set: add, replace, sorted and without duplicates', async () => {
    expect(await t.bus.getWatchSet()).to.deep.equal([]);
    await t.bus.addToWatchSet([
      { symbol: 'TCS', exchange: 'NSE' },
      { symbol: 'RELIANCE', exchange: 'BSE' },
    ]);
    await t.bus.addToWatchSet([{ symbol: 'TCS', exchange: 'NSE' }]);
    await t.bus.addToWatchSet([]);
    expect(await t.bus.getWatchSet()).to.deep.equal([
      { exchange: 'BSE', symbol: 'RELIANCE' },
      { exchange: 'NSE', symbol: 'TCS' },
    ]);
    await t.bus.replaceWatchSet([{ symbol: 'M&M', exchange: 'NSE' }]);
    expect(await t.bus.getWatchSet()).to.deep.equal([{ exchange: 'NSE', symbol: 'M&M' }]);
    await t.bus.replaceWatchSet([]);
    expect(await t.bus.getWatchSet()).to.deep.equal([]);
  });

  it('removes instruments from the watch set by key, with their reference prices', async () => {
    await t.bus.replaceWatchSet([
      { symbol: 'IDEA', exchange: 'NSE', referencePrice: 7.41 },
      { symbol: 'TCS', exchange: 'NSE', referencePrice: 3250 },
      { symbol: 'RELIANCE', exchange: 'BSE' },
    ]);
    await t.bus.removeFromWatchSet(['NSE:IDEA', 'BSE:RELIANCE', 'NSE:NOTWATCHED']);
    await t.bus.removeFromWatchSet([]);
    expect(await t.bus.getWatchSet()).to.deep.equal([
      { exchange: 'NSE', symbol: 'TCS', referencePrice: 3250 },
    ]);
    // Added again, it carries only the reference it is added with.
    await t.bus.addToWatchSet([{ symbol: 'IDEA', exchange: 'NSE' }]);
    expect(await t.bus.getWatchSet()).to.deep.equal([
      { exchange: 'NSE', symbol: 'IDEA' },
      { exchange: 'NSE', symbol: 'TCS', referencePrice: 3250 },
    ]);
    await t.bus.replaceWatchSet([]);
  });

  it("carries each instrument's reference price (its holders' average buy price), replaced with the set", async () => {
    await t.bus.replaceWatchSet([
      { symbol: 'IDEA', exchange: 'NSE', referencePrice: 7.41 },
      { symbol: 'RELIANCE', exchange: 'NSE' },
    ]);
    expect(await t.bus.getWatchSet()).to.deep.equal([
      { exchange: 'NSE', symbol: 'IDEA', referencePrice: 7.41 },
      { exchange: 'NSE', symbol: 'RELIANCE' },
    ]);
    await t.bus.addToWatchSet([{ symbol: 'YESBANK', exchange: 'BSE', referencePrice: 18.2 }]);
    await t.bus.replaceWatchSet([
      { symbol: 'IDEA', exchange: 'NSE' },
      { symbol: 'YESBANK', exchange: 'BSE' },
    ]);
    // A reference dropped from the list is gone with the old set.
    expect(await t.bus.getWatchSet()).to.deep.equal([
      { exchange: 'BSE', symbol: 'YESBANK' },
      { exchange: 'NSE', symbol: 'IDEA' },
    ]);
    await t.bus.replaceWatchSet([]);
  });

  it("carries a BSE stock's scrip code (Yahoo's name for it), replaced with the set", async () => {
    await t.bus.replaceWatchSet([{ symbol: 'RELIANCE', exchange: 'BSE', scripCode: '500325' }]);
    await t.bus.addToWatchSet([
      { symbol: 'COLAB', exchange: 'BSE', scripCode: '543213', referencePrice: 18 },
    ]);
    expect(await t.bus.getWatchSet()).to.deep.equal([
      { exchange: 'BSE', symbol: 'COLAB', scripCode: '543213', referencePrice: 18 },
      { exchange: 'BSE', symbol: 'RELIANCE', scripCode: '500325' },
    ]);
    await t.bus.replaceWatchSet([{ symbol: 'RELIANCE', exchange: 'BSE' }]);
    expect(await t.bus.getWatchSet()).to.deep.equal([{ exchange: 'BSE', symbol: 'RELIANCE' }]);
    await t.bus.replaceWatchSet([]);
  });

  it("carries each instrument's ISIN (Upstox's key for it), added, replaced and removed with it", async () => {
    await t.bus.replaceWatchSet([
      { symbol: 'RELIANCE', exchange: 'NSE', isin: 'INE002A01018' },
      { symbol: 'RELIANCE', exchange: 'BSE', scripCode: '500325', isin: 'INE002A01018' },
    ]);
    await t.bus.addToWatchSet([
      { symbol: 'YESBANK', exchange: 'NSE', isin: 'INE528G01035', referencePrice: 18.75 },
    ]);
    expect(await t.bus.getWatchSet()).to.deep.equal([
      { exchange: 'BSE', symbol: 'RELIANCE', scripCode: '500325', isin: 'INE002A01018' },
      { exchange: 'NSE', symbol: 'RELIANCE', isin: 'INE002A01018' },
      { exchange: 'NSE', symbol: 'YESBANK', isin: 'INE528G01035', referencePrice: 18.75 },
    ]);
    await t.bus.removeFromWatchSet(['NSE:YESBANK']);
    await t.bus.addToWatchSet([{ symbol: 'YESBANK', exchange: 'NSE' }]);
    await t.bus.replaceWatchSet([...(await t.bus.getWatchSet()), { symbol: 'IDEA', exchange: 'NSE' }]);
    expect(await t.bus.getWatchSet()).to.deep.equal([
      { exchange: 'BSE', symbol: 'RELIANCE', scripCode: '500325', isin: 'INE002A01018' },
      { exchange: 'NSE', symbol: 'IDEA' },
      { exchange: 'NSE', symbol: 'RELIANCE', isin: 'INE002A01018' },
      { exchange: 'NSE', symbol: 'YESBANK' },
    ]);
    await t.bus.replaceWatchSet([{ symbol: 'RELIANCE', exchange: 'NSE' }]);
    expect(await t.bus.getWatchSet()).to.deep.equal([{ exchange: 'NSE', symbol: 'RELIANCE' }]);
    await t.bus.replaceWatchSet([]);
  });

  it('keeps the feed state the streamer reported until it expires unrenewed', async () => {
    const state = {
      provider: 'kite',
      state: 'live' as const,
      fallback: 'yahoo',
      since: 1_780_000_000_000,
      delayMinutes: 0,
      instruments: { streamed: 2, polled: 1, unsupported: ['NSE:TCS'], unsupportedCount: 1 },
      at: 1_780_000_001_000,
    };
    expect(await t.bus.getFeedState()).to.equal(null);
    await t.bus.setFeedState(state, 150);
    expect(await t.bus.getFeedState()).to.deep.equal(state);
    await sleep(250);
    expect(await t.bus.getFeedState(), 'a streamer that stopped reporting is not reported').to.equal(null);
  });

  it("hands the feed's credentials to a streamer that listens later, then each change and the clearing", async () => {
    const token = (accessToken: string): FeedCredentials => ({
      provider: 'kite',
      accessToken,
      expiresAt: Date.now() + 60_000,
    });
    await t.bus.setFeedCredentials(token('day-one'));
    const seen: Array<string | null> = [];
    const stop = t.bus.onFeedCredentials((c) => void seen.push(c?.accessToken ?? null));
    await waitFor('the current credentials', () => seen.length === 1);
    expect(seen).to.deep.equal(['day-one']);
    await t.bus.setFeedCredentials(token('day-two'));
    await waitFor('the new credentials', () => seen.length === 2);
    await t.bus.setFeedCredentials(null);
    await waitFor('the clearing', () => seen.length === 3);
    expect(seen).to.deep.equal(['day-one', 'day-two', null]);
    stop();
    await t.bus.setFeedCredentials(token('day-three'));
    await sleep(100);
    expect(seen, 'nothing after unsubscribing').to.have.length(3);
  });

  it('keeps the credentials no longer than the token lives', async () => {
    await t.bus.setFeedCredentials({ provider: 'kite', accessToken: 'short', expiresAt: Date.now() + 150 });
    await sleep(250);
    const seen: Array<string | null> = [];
    t.bus.onFeedCredentials((c) => void seen.push(c?.accessToken ?? null));
    await waitFor('the current credentials', () => seen.length === 1);
    expect(seen, 'an expired token is not handed out').to.deep.equal([null]);
  });
}
