import { nseCalendar, type MarketCalendar } from '@app/common/market/calendar';
import { MAX_QUOTES_PER_BATCH, type TickBatch } from '@app/common/market/tick-batch';
import { expect } from 'chai';
import { createMemoryBus } from '../../streamer/src/bus/memory.ts';
import type { MarketBus } from '../../streamer/src/bus/types.ts';
import { createSimulatedProvider } from '../../streamer/src/providers/simulated.ts';
import type { QuoteProvider, WatchedInstrument } from '../../streamer/src/providers/types.ts';
import { createStreamer, type StreamerDeps } from '../../streamer/src/streamer.ts';
import { captureLog, sleep, flatQuotes, type LogLine, waitFor } from './helpers.ts';

const WATCH: WatchedInstrument[] = [
  { symbol: 'RELIANCE', exchange: 'NSE' },
  { symbol: 'TCS', exchange: 'BSE' },
];

/** A provider that records what it is asked, optionally slowly. */
function countingProvider(opts: { delayMs?: number; calendar?: MarketCalendar } = {}) {
  const calls: string[][] = [];
  let active = 0;
  let maxActive = 0;
  const provider: QuoteProvider = {
    name: 'counting',
    maxSymbolsPerRequest: 100,
    calendar: opts.calendar,
    async getQuotes(instruments) {
      active++;
      maxActive = Math.max(maxActive, active);
      calls.push(instruments.map((i) => `${i.exchange}:${i.symbol}`));
      if (opts.delayMs) await sleep(opts.delayMs);
      active--;
      return flatQuotes(instruments);
    },
  };
  return { provider, calls, maxActive: () => maxActive };
}

describe('streamer: poll loop', () => {
  let bus: MarketBus;
  let received: TickBatch[];
  let lines: LogLine[];
  let stopAll: Array<() => Promise<void>>;

  beforeEach(async () => {
    bus = createMemoryBus();
    received = [];
    bus.onBatch((batch) => void received.push(batch));
    await bus.replaceWatchSet(WATCH);
    stopAll = [];
  });
  afterEach(async () => {
    for (const stop of stopAll) await stop();
    await bus.close();
  });

  function start(deps: Partial<StreamerDeps> & Pick<StreamerDeps, 'provider'>) {
    const capture = captureLog();
    lines = capture.lines;
    const streamer = createStreamer({ bus, intervalMs: 100, log: capture.log, ...deps });
    streamer.start();
    stopAll.push(() => streamer.stop());
    return streamer;
  }

  const cycleLines = () => lines.filter((l) => l.msg === 'poll cycle');

  it('publishes a watch set larger than one message as several batches, every instrument once', async () => {
    const many = Array.from({ length: MAX_QUOTES_PER_BATCH + 5 }, (_, i): WatchedInstrument => ({
      symbol: `S${i}`,
      exchange: 'NSE',
    }));
    await bus.replaceWatchSet(many);
    const { provider } = countingProvider();
    start({ provider: { ...provider, maxSymbolsPerRequest: 5000 }, intervalMs: 60_000 });
    await waitFor('the cycle', () => cycleLines().length === 1, 10_000);
    expect(received.map((b) => b.quotes.length)).to.deep.equal([MAX_QUOTES_PER_BATCH, 5]);
    const symbols = new Set(received.flatMap((b) => b.quotes.map((q) => q.symbol)));
    expect(symbols.size).to.equal(many.length);
    expect(cycleLines()[0]!.batches).to.deep.equal(received.map((b) => b.id));
  });

  it('publishes one batch per cycle for the watch set, with run-scoped ids and the publish time', async () => {
    const before = Date.now();
    start({ provider: createSimulatedProvider({ seed: 3 }) });
    await waitFor('three batches', () => received.length >= 3);
    const ids = received.map((b) => b.id);
    const [run] = ids[0]!.split('-');
    expect(Number(run)).to.be.within(before, Date.now());
    expect(ids.slice(0, 3)).to.deep.equal([`${run}-1`, `${run}-2`, `${run}-3`]);
    for (const batch of received) {
      expect(batch.source).to.equal('simulated');
      expect(batch.at).to.be.within(before, Date.now());
      expect(batch.quotes.map((q) => `${q.exchange}:${q.symbol}`)).to.deep.equal(['BSE:TCS', 'NSE:RELIANCE']);
    }
    const line = cycleLines()[0]!;
    expect(line).to.include({ batch: ids[0], instruments: 2, quotes: 2, errors: 0, requests: 1 });
    expect(line.durationMs).to.be.a('number');
  });

  it('publishes nothing while the watch set is empty, and picks up additions', async () => {
    await bus.replaceWatchSet([]);
    const { provider, calls } = countingProvider();
    start({ provider });
    await sleep(250);
    expect(calls).to.have.length(0);
    expect(received).to.have.length(0);
    await bus.addToWatchSet([{ symbol: 'INFY', exchange: 'NSE' }]);
    await waitFor('a batch', () => received.length > 0);
    expect(received[0]!.quotes.map((q) => q.symbol)).to.deep.equal(['INFY']);
  });

  it('never overlaps cycles, even when a poll takes longer than the interval', async () => {
    const slow = countingProvider({ delayMs: 250 });
    start({ provider: slow.provider });
    await waitFor('three polls', () => slow.calls.length >= 3, 5000);
    expect(slow.maxActive()).to.equal(1);
  });

  it('logs a failing cycle and runs the next one', async () => {
    let failures = 1;
    const flaky: MarketBus = {
      ...bus,
      getWatchSet: () => (failures-- > 0 ? Promise.reject(new Error('redis down')) : bus.getWatchSet()),
    };
    start({ bus: flaky, provider: createSimulatedProvider() });
    await waitFor('a batch after the failure', () => received.length > 0);
    const failed = lines.find((l) => l.msg === 'poll cycle failed')!;
    expect(failed.level).to.equal(50);
    expect((failed.err as { message: string }).message).to.equal('redis down');
  });

  it('stop() waits for the running cycle; nothing runs afterwards', async () => {
    const slow = countingProvider({ delayMs: 150 });
    const streamer = start({ provider: slow.provider });
    await waitFor('a poll to start', () => slow.calls.length === 1);
    await streamer.stop();
    const published = received.length;
    await sleep(300);
    expect(slow.calls).to.have.length(1);
    expect(received.length).to.equal(published);
  });

  it('with a calendar: polls while open, once after the close, and newcomers once out of hours', async () => {
    let open = false;
    let close = Date.parse('2026-07-10T10:00:00Z');
    const calendar: MarketCalendar = {
      isMarketOpen: () => open,
      lastClose: () => new Date(close),
      nextOpen: () => new Date(close + 86_400_000),
    };
    const counting = countingProvider({ calendar });
    start({ provider: counting.provider });
    await waitFor('the after-close poll', () => counting.calls.length === 1);
    await sleep(300);
    expect(counting.calls, 'one poll after the close, then quiet').to.deep.equal([
      ['BSE:TCS', 'NSE:RELIANCE'],
    ]);

    await bus.addToWatchSet([{ symbol: 'INFY', exchange: 'NSE' }]);
    await waitFor('the newcomer', () => counting.calls.length === 2);
    expect(counting.calls[1]).to.deep.equal(['NSE:INFY']);

    open = true;
    await waitFor('polls while open', () => counting.calls.length >= 5);
    expect(counting.calls.at(-1)).to.have.length(3);

    open = false;
    close += 86_400_000;
    const polled = counting.calls.length;
    await waitFor('the poll after the new close', () => counting.calls.length === polled + 1);
    await sleep(300);
    expect(counting.calls).to.have.length(polled + 1);
  });
  it('with the shipped NSE calendar: polls through special sessions, not on holidays', async () => {
    const ist = (local: string) => Date.parse(`${local}+05:30`);
    for (const [at, label] of [
      ['2026-02-01T10:00:00', 'Sunday 1 Feb 2026, Union Budget session'],
      ['2025-02-01T15:00:00', 'Saturday 1 Feb 2025, Union Budget session'],
      ['2025-10-21T14:00:00', 'Muhurat trading, 21 Oct 2025'],
    ] as const) {
      const counting = countingProvider({ calendar: nseCalendar });
      const streamer = start({ provider: counting.provider, now: () => ist(at) });
      await waitFor(`polls during ${label}`, () => counting.calls.length >= 3);
      await streamer.stop();
      expect(
        counting.calls.every((c) => c.length === WATCH.length),
        label,
      ).to.equal(true);
      expect(
        cycleLines().every((l) => l.afterClose === undefined),
        label,
      ).to.equal(true);
    }

    for (const [at, label] of [
      ['2026-01-26T11:00:00', 'Republic Day 2026'],
      ['2025-02-26T11:00:00', 'Mahashivratri 2025'],
      ['2025-10-21T10:00:00', 'Diwali morning 2025, before the Muhurat session'],
      ['2027-01-26T11:00:00', 'Republic Day 2027 (provisional year)'],
    ] as const) {
      const counting = countingProvider({ calendar: nseCalendar });
      const streamer = start({ provider: counting.provider, now: () => ist(at) });
      await waitFor(`the after-close poll on ${label}`, () => counting.calls.length === 1);
      await sleep(350);
      await streamer.stop();
      expect(counting.calls, `${label}: one poll after the last close, then quiet`).to.have.length(1);
      expect(cycleLines()[0]?.afterClose, label).to.equal(true);
    }
  });
});
