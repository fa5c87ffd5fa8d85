import { expect } from 'chai';
import type { Quote } from '@app/common/market/tick-batch';
import { createQuotePoller } from '../../streamer/src/poll.ts';
import {
  QuoteProviderError,
  type QuoteProvider,
  type WatchedInstrument,
} from '../../streamer/src/providers/types.ts';
import { manyInstruments } from './helpers.ts';

/** A provider answering from a script of outcomes (a thrown error or quotes), then quotes. */
function scriptedProvider(maxSymbolsPerRequest: number, script: Array<Error | 'ok'> = []) {
  const calls: WatchedInstrument[][] = [];
  const provider: QuoteProvider = {
    name: 'scripted',
    maxSymbolsPerRequest,
    async getQuotes(instruments) {
      calls.push([...instruments]);
      const step = script.shift() ?? 'ok';
      if (step instanceof Error) throw step;
      return instruments.map((i): Quote => ({
        ...i,
        ltp: 100,
        prevClose: 99,
        change: 1,
        changePercent: 1.01,
        // Printed just now: these tests are about requests, not about old quotes.
        asOf: Date.now(),
        delayMinutes: 0,
      }));
    },
  };
  return { provider, calls };
}

const unavailable = () => new QuoteProviderError('503', { status: 503, retryable: true });

describe('streamer: poller (chunking, back-off, stale cache)', () => {
  it('computes capped exponential back-off with jitter, reset by a success', async () => {
    let now = 0;
    const script: Array<Error | 'ok'> = [
      unavailable(),
      unavailable(),
      unavailable(),
      unavailable(),
      'ok',
      unavailable(),
    ];
    const { provider } = scriptedProvider(10, script);
    const poller = createQuotePoller({
      provider,
      now: () => now,
      random: () => 1,
      backoff: { baseMs: 1000, capMs: 4000, maxAttempts: 1, maxWaitMs: 0 },
    });
    const delays: Array<number | undefined> = [];
    for (let i = 0; i < 6; i++) {
      const result = await poller.poll(manyInstruments(1));
      delays.push(result.backoffUntil === undefined ? undefined : result.backoffUntil - now);
      now = result.backoffUntil ?? now;
    }
    expect(delays).to.deep.equal([1000, 2000, 4000, 4000, undefined, 1000]);
  });

  it('jitters between half and all of the exponential delay', async () => {
    const { provider } = scriptedProvider(10, [unavailable(), unavailable()]);
    const poller = createQuotePoller({
      provider,
      now: () => 0,
      random: () => 0,
      backoff: { baseMs: 1000, maxAttempts: 1, maxWaitMs: 0 },
    });
    expect((await poller.poll(manyInstruments(1))).backoffUntil).to.equal(500);
  });

  it('does not back off after a non-retryable failure and still asks for the other chunks', async () => {
    const bad = new QuoteProviderError('400', { status: 400, retryable: false });
    const { provider, calls } = scriptedProvider(2, [bad]);
    const result = await createQuotePoller({ provider }).poll(manyInstruments(5));
    expect(calls.map((c) => c.length)).to.deep.equal([2, 2, 1]);
    expect(result.fresh).to.equal(3);
    expect(result.missing, 'never seen, so not even stale').to.equal(2);
    expect(result.backoffUntil).to.equal(undefined);
  });

  it('stops asking for further chunks once a chunk has used up its attempts', async () => {
    const { provider, calls } = scriptedProvider(2, Array.from({ length: 10 }, unavailable));
    const poller = createQuotePoller({ provider, backoff: { baseMs: 1, capMs: 2, maxAttempts: 2 } });
    const result = await poller.poll(manyInstruments(6));
    expect(calls).to.have.length(2);
    expect(result.missing).to.equal(6);
    expect(result.errors).to.have.length(2);
  });

  it('asks once per instrument even when the watch set repeats one', async () => {
    const { provider, calls } = scriptedProvider(10);
    const one = { symbol: 'SBIN', exchange: 'NSE' as const };
    const result = await createQuotePoller({ provider }).poll([one, one, { ...one, exchange: 'BSE' }]);
    expect(calls[0]).to.have.length(2);
    expect(result.quotes).to.have.length(2);
  });

  it('counts an unexpected provider exception as an error, not a crash', async () => {
    const { provider } = scriptedProvider(10, [new TypeError('bug')]);
    const result = await createQuotePoller({ provider }).poll(manyInstruments(1));
    expect(result.errors).to.deep.equal([{ message: 'bug', retryable: false }]);
  });
});
