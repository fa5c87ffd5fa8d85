/**
 * The streaming feed (streamer/src/streams/feed.ts) over a stream double of our own seam (not of
 * a broker: the brokers' streams are tested against their fakes): coalescing into one batch per
 * FEED_BATCH_MS, the fallback while the stream is not live and for what it cannot carry, the
 * return to the stream on new credentials, the feed state, and leader-only holding.
 */
import type { FeedState } from '@app/common/market/feed-state';
import { instrumentKey, type Quote, type TickBatch } from '@app/common/market/tick-batch';
import { parseConfig } from '@app/config';
import { expect } from 'chai';
import { createMemoryBus } from '../../../streamer/src/bus/memory.ts';
import { closeRedisConnection, createRedisConnection } from '../../../streamer/src/bus/connection.ts';
import { createRedisBus } from '../../../streamer/src/bus/redis.ts';
import type { MarketBus } from '../../../streamer/src/bus/types.ts';
import { createLeaderLock } from '../../../streamer/src/leader.ts';
import type { QuoteProvider, WatchedInstrument } from '../../../streamer/src/providers/types.ts';
import { createStreamingFeed, type StreamingFeedDeps } from '../../../streamer/src/streams/feed.ts';
import { planConnections } from '../../../streamer/src/streams/subscriptions.ts';
import type {
  QuoteStream,
  StreamCredentials,
  StreamHandlers,
  StreamState,
} from '../../../streamer/src/streams/types.ts';
import { captureLog, privateRedis, sleep, waitFor } from '../helpers.ts';

const keyOf = (i: { exchange: string; symbol: string }) => instrumentKey(i.exchange, i.symbol);
const WATCH: WatchedInstrument[] = [
  { symbol: 'RELIANCE', exchange: 'NSE' },
  { symbol: 'TCS', exchange: 'NSE' },
  { symbol: 'INFY', exchange: 'BSE' },
];

/**
 * A QuoteStream double: it plans connections with the shared helper (so over its limits an
 * instrument is unsupported), records what it is told, and lets the test push quotes and states.
 */
function streamDouble(limits = { perConnection: 10, connections: 1 }) {
  let handlers: StreamHandlers | undefined;
  const record = { starts: 0, stops: 0, watched: [] as string[][], credentials: [] as StreamCredentials[] };
  const stream: QuoteStream = {
    name: 'teststream',
    limits,
    watch(instruments) {
      record.watched.push(instruments.map(keyOf));
      return { unsupported: planConnections(instruments, limits, keyOf).overflow };
    },
    start(h) {
      record.starts++;
      handlers = h;
      h.onState({ state: 'connecting' });
    },
    setCredentials(credentials) {
      record.credentials.push(credentials);
      // As a real stream does: a refused stream connects again with the new token.
      handlers?.onState({ state: 'live' });
    },
    async stop() {
      record.stops++;
      handlers = undefined;
    },
  };
  return {
    stream,
    record,
    started: () => handlers !== undefined,
    state: (state: StreamState) => handlers!.onState(state),
    tick: (symbol: string, ltp: number, exchangeTime?: number) =>
      handlers!.onQuote({
        symbol,
        exchange: 'NSE',
        ltp,
        prevClose: 100,
        exchangeTime,
        receivedAt: Date.now(),
      }),
  };
}

/** A delayed polling source (Yahoo-like): every instrument at ₹50, 15 minutes late. */
function delayedProvider() {
  const calls: string[][] = [];
  const provider: QuoteProvider = {
    name: 'slowpoll',
    maxSymbolsPerRequest: 100,
    delayMinutes: 15,
    async getQuotes(instruments) {
      calls.push(instruments.map(keyOf));
      const asOf = Date.now() - 14 * 60_000;
      return instruments.map((i): Quote => ({
        ...i,
        ltp: 50,
        prevClose: 50,
        change: 0,
        changePercent: 0,
        asOf,
        delayMinutes: 15,
      }));
    },
  };
  return { provider, calls };
}

describe('streamer: the streaming feed (a stream double of our seam)', () => {
  let bus: MarketBus;
  let batches: Array<TickBatch & { receivedAt: number }>;
  let cleanup: Array<() => Promise<void>>;

  beforeEach(async () => {
    bus = createMemoryBus();
    batches = [];
    bus.onBatch((batch) => void batches.push({ ...batch, receivedAt: Date.now() }));
    await bus.replaceWatchSet(WATCH);
    cleanup = [];
  });
  afterEach(async () => {
    for (const fn of cleanup.reverse()) await fn();
    await bus.close();
  });

  function startFeed(deps: Partial<StreamingFeedDeps> & Pick<StreamingFeedDeps, 'stream' | 'fallback'>) {
    const { log, lines } = captureLog();
    const feed = createStreamingFeed({
      bus,
      batchMs: 100,
      intervalMs: 400,
      log,
      watchRefreshMs: 50,
      stateRefreshMs: 200,
      ...deps,
    });
    feed.start();
    cleanup.push(() => feed.stop());
    return { feed, lines };
  }

  const quotesOf = (symbol: string, from = batches) =>
    from.flatMap((b) => b.quotes.filter((q) => q.symbol === symbol));
  const feedState = async () => (await bus.getFeedState()) as FeedState;

  it('coalesces a window of ticks into one batch with the latest quote per instrument, every FEED_BATCH_MS', async () => {
    const double = streamDouble();
    const fallback = delayedProvider();
    startFeed({ stream: double.stream, fallback: fallback.provider, batchMs: 200 });
    await waitFor('the stream to be started with the watch set', () => double.started());
    expect(double.record.watched[0]).to.have.members(WATCH.map(keyOf));
    double.state({ state: 'live' });

    // 1.2 s of ticks: RELIANCE every 10 ms, rising by 1 each time; TCS once.
    const exchangeTime = Date.now() - 400;
    const began = Date.now();
    double.tick('TCS', 3500);
    let ltp = 2000;
    while (Date.now() - began < 1200) {
      double.tick('RELIANCE', ++ltp, exchangeTime);
      await sleep(10);
    }
    await sleep(300);
    const withReliance = batches.filter((b) => b.quotes.some((q) => q.symbol === 'RELIANCE'));
    // ~100 ticks in 1.2 s at one batch per 200 ms: about six batches, each with one RELIANCE quote.
    expect(withReliance.length).to.be.within(4, 8);
    for (const batch of withReliance) {
      expect(
        batch.quotes.filter((q) => q.symbol === 'RELIANCE'),
        batch.id,
      ).to.have.length(1);
      expect(batch.source).to.equal('teststream');
    }
    const ltps = quotesOf('RELIANCE').map((q) => q.ltp);
    expect(ltps, 'each batch has the latest of its window').to.deep.equal([...ltps].sort((a, b) => a - b));
    expect(ltps.at(-1), 'the last tick is published').to.equal(ltp);
    const last = quotesOf('RELIANCE').at(-1)!;
    expect(last).to.include({ delayMinutes: 0, asOf: exchangeTime, prevClose: 100 });
    expect(last.change).to.equal(ltp - 100);
    expect(quotesOf('TCS'), 'one tick, one quote').to.have.length(1);
    const gaps = withReliance.slice(1).map((b, i) => b.at - withReliance[i]!.at);
    for (const gap of gaps) expect(gap).to.be.within(150, 350);

    // Nothing received, nothing published.
    const count = batches.length;
    await sleep(600);
    expect(batches).to.have.length(count);
    expect(fallback.calls.flat(), 'nothing polled while the stream carries everything').to.deep.equal([]);
    expect(await feedState()).to.deep.include({ provider: 'teststream', state: 'live', delayMinutes: 0 });
  });

  it('falls back within one interval after auth_refused, stops retrying, and returns on new credentials', async () => {
    const double = streamDouble();
    const fallback = delayedProvider();
    const { feed } = startFeed({ stream: double.stream, fallback: fallback.provider, intervalMs: 400 });
    await waitFor('the stream to start', () => double.started());
    double.state({ state: 'live' });
    double.tick('RELIANCE', 2500);
    await waitFor('a streamed batch', () => quotesOf('RELIANCE').length > 0);

    double.tick('RELIANCE', 2550); // the last tick before the refusal still goes out, as streamed
    const refusedAt = Date.now();
    double.state({ state: 'auth_refused', reason: 'token expired (403 on the upgrade)' });
    await waitFor('the last streamed tick', () =>
      batches.some((b) => b.source === 'teststream' && b.quotes.some((q) => q.ltp === 2550)),
    );
    await waitFor('a fallback batch', () => batches.some((b) => b.source === 'slowpoll'), 2000);
    const fallbackBatch = batches.find((b) => b.source === 'slowpoll')!;
    expect(fallbackBatch.receivedAt - refusedAt, 'within one QUOTE_INTERVAL_MS').to.be.below(400 + 200);
    expect(fallbackBatch.quotes.map(keyOf)).to.have.members(WATCH.map(keyOf));
    for (const quote of fallbackBatch.quotes) expect(quote.delayMinutes).to.equal(15);
    await waitFor('the state to say fallback', async () => (await feedState()).state === 'fallback');
    const state = await feedState();
    expect(state).to.deep.include({ provider: 'teststream', fallback: 'slowpoll', delayMinutes: 15 });
    expect(state.reason).to.contain('token expired');
    expect(state.instruments).to.deep.include({ streamed: 0, polled: 3 });
    expect(double.record.starts, 'no reconnect of its own').to.equal(1);

    // The operator reconnects the broker: the stream is live again, and only it prices.
    feed.setCredentials({ accessToken: 'fresh-token' });
    expect(double.record.credentials).to.deep.equal([{ accessToken: 'fresh-token' }]);
    const backAt = Date.now();
    double.tick('RELIANCE', 2700);
    await waitFor('a streamed batch again', () =>
      batches.some((b) => b.receivedAt >= backAt && b.source === 'teststream'),
    );
    const polls = fallback.calls.length;
    await sleep(900);
    expect(fallback.calls.slice(polls).flat(), 'nothing polled once live').to.deep.equal([]);
    expect(batches.filter((b) => b.receivedAt > backAt).map((b) => b.source)).to.not.include('slowpoll');
    expect(await feedState()).to.deep.include({ state: 'live', delayMinutes: 0 });
  });

  it('polls from the fallback, beside the stream, the instruments beyond its limits', async () => {
    const double = streamDouble({ perConnection: 2, connections: 1 });
    const fallback = delayedProvider();
    startFeed({ stream: double.stream, fallback: fallback.provider, intervalMs: 300 });
    await waitFor('the stream to start', () => double.started());
    // (Until the stream is live, its first poll at once asks for everything.)
    await sleep(50);
    double.state({ state: 'live' });
    const before = fallback.calls.length;
    await waitFor('two polls while live', () => fallback.calls.length >= before + 2, 3000);
    // WATCH sorted by key is BSE:INFY, NSE:RELIANCE, NSE:TCS: the third does not fit.
    for (const call of fallback.calls.slice(before)) expect(call).to.deep.equal(['NSE:TCS']);
    double.tick('RELIANCE', 2500);
    await waitFor('the streamed quote', () => quotesOf('RELIANCE').some((q) => q.delayMinutes === 0));
    const live = batches.filter((b) => b.source === 'teststream');
    expect(quotesOf('TCS', live).at(-1)).to.include({ delayMinutes: 15, ltp: 50 });
    expect(quotesOf('RELIANCE', live).at(-1)).to.include({ delayMinutes: 0, ltp: 2500 });
    const state = await feedState();
    expect(state).to.deep.include({ state: 'live' });
    expect(state.instruments).to.deep.equal({
      streamed: 2,
      polled: 1,
      unsupported: ['NSE:TCS'],
      unsupportedCount: 1,
    });
  });

  it('polls everything from the fallback while the stream is down, and reports down when the fallback fails too', async () => {
    const double = streamDouble();
    let failing = false;
    const fallback = delayedProvider();
    const provider: QuoteProvider = {
      ...fallback.provider,
      async getQuotes(instruments) {
        if (failing) throw new Error('fallback unreachable');
        return fallback.provider.getQuotes(instruments);
      },
    };
    startFeed({ stream: double.stream, fallback: provider, intervalMs: 300 });
    await waitFor('the stream to start', () => double.started());
    double.state({ state: 'down', reason: 'connection closed (1006)' });
    await waitFor('a fallback poll of everything', () => fallback.calls.some((c) => c.length === 3), 2000);
    await waitFor('fallback', async () => (await feedState()).state === 'fallback');
    failing = true;
    await waitFor('down', async () => (await feedState()).state === 'down', 3000);
    expect((await feedState()).reason)
      .to.contain('connection closed (1006)')
      .and.contain('fallback unreachable');
  });
});

describe('streamer: the streaming feed is held by the leader only (private redis-server)', function () {
  const redis = privateRedis();
  let cleanup: Array<() => Promise<void>>;
  beforeEach(async () => {
    await redis.raw.sadd('market:watch', 'NSE:RELIANCE', 'NSE:TCS');
    cleanup = [];
  });
  afterEach(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  function feedProcess() {
    const { log } = captureLog();
    const bus = createRedisBus(redis.server.url, log);
    const lockConnection = createRedisConnection(redis.server.url, log, 'leader');
    const leader = createLeaderLock({ redis: lockConnection, ttlMs: 300, log });
    const double = streamDouble();
    const fallback = delayedProvider();
    const feed = createStreamingFeed({
      bus,
      stream: double.stream,
      fallback: fallback.provider,
      batchMs: 50,
      intervalMs: 200,
      log,
      leader,
      watchRefreshMs: 50,
    });
    cleanup.push(async () => {
      await feed.stop();
      await bus.close();
      await closeRedisConnection(lockConnection, log);
    });
    return { feed, double, fallback, leader };
  }

  it('starts the stream only in the leader, and the standby takes it over when the leader stops', async () => {
    const a = feedProcess();
    const b = feedProcess();
    a.feed.start();
    await waitFor('a to hold the stream', () => a.double.started());
    b.feed.start();
    await sleep(800);
    expect(b.double.record.starts, 'the standby holds no stream').to.equal(0);
    expect(b.fallback.calls, 'nor polls').to.have.length(0);

    await a.feed.stop();
    expect(a.double.record.stops, 'the old leader closed its stream').to.be.at.least(1);
    await waitFor('b to take over', () => b.double.started(), 5000);
    expect(b.double.record.watched[0]).to.have.members(['NSE:RELIANCE', 'NSE:TCS']);
  });
});

describe('streamer: the configured source', () => {
  it('defaults to a 500 ms batch and the Yahoo fallback', () => {
    const config = parseConfig({ QUOTE_PROVIDER: 'dhan' }, 'streamer');
    expect(config).to.include({
      FEED_BATCH_MS: 500,
      QUOTE_FALLBACK: 'yahoo',
      DHAN_WS_URL: 'wss://api-feed.dhan.co',
    });
  });
});
