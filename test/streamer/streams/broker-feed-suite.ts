/**
 * The end-to-end suite every broker feed that reads an instrument master passes in the streamer
 * (docs/live-prices.md#streaming-feeds), run against the broker's fake feed and the fake scrip
 * masters: the fallback polled until the master loads, then the broker's ticks on the bus with no
 * delay and the exchange's time; an instrument the master does not list still polled; a kill of
 * the feed; a stop and a start again; the broker refusing the credentials and no credentials at
 * all, until the operator's fresh ones arrive; a flood of 2,000 instruments; the configured
 * streamer. A feed's test file is its entry (`BrokerFeedCase`) and one call.
 */
import { ConfigError, parseConfig } from '@app/config';
import { expect } from 'chai';
import { createMemoryBus } from '../../../streamer/src/bus/memory.ts';
import type { WatchedInstrument } from '../../../streamer/src/providers/types.ts';
import { createConfiguredStreamer } from '../../../streamer/src/source.ts';
import {
  createStream,
  credentialsFromEnvironment,
  type StreamSource,
} from '../../../streamer/src/streams/index.ts';
import type { StreamCredentials, StreamQuote } from '../../../streamer/src/streams/types.ts';
import { startFakeScripMasters, type FakeScripMasters } from '../../helpers/fake-brokers/scrip-masters.ts';
import { captureLog, manyInstruments, sleep, waitFor } from '../helpers.ts';
import { runBrokerFeed } from './broker-feed-harness.ts';

/** What the suite needs of a broker's fake feed. */
interface FeedFake {
  url: string;
  sockets: { size: number };
  /** The keys the sockets hold subscribed now, across connections. */
  subscribed(): Set<string>;
  kill(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** An instrument the master lists: its key at the broker and a price it trades at. */
interface Listed {
  symbol: string;
  key: string;
  price: number;
}

/** One broker feed: its fakes, its variables and how it refuses. */
export interface BrokerFeedCase<F extends FeedFake> {
  source: StreamSource;
  /** Names the broker and its fake in the titles (`Angel One`, `the fake SmartStream`). */
  broker: string;
  fakeName: string;
  startFake(): Promise<F>;
  /** The instruments the master lists (the suite also watches NSE:INFY, which it does not). */
  listed: { nse: Listed; bse: Listed };
  /** Sets the master to list `listed`, beside the broker's other rows. */
  listTwo(masters: FakeScripMasters, fake: F): void;
  /** Sets the master to list only `watched` (NSE); returns the i-th one's key. */
  listMany(masters: FakeScripMasters, watched: readonly WatchedInstrument[]): (i: number) => string;
  /** The streamer's variables, credentials the fake accepts included. */
  env(fake: F, masters: FakeScripMasters): Record<string, string>;
  /** Sends a price for `key`, traded at `at` (epoch ms). */
  tick(fake: F, key: string, ltp: number, at: number): void;
  /** The broker refusing: started with `env` over the valid ones, or `expire` once live; the reason it gives. */
  refusal: { title: string; env?: Record<string, string>; expire?(fake: F): void; reason: RegExp };
  /** Fresh credentials the fake accepts, as the operator reconnecting the broker brings them. */
  renew(fake: F): StreamCredentials;
  /** The variable without which there are no credentials, and the state's reason then. */
  noCredentials: { variable: string; reason: string };
  /** A variable without which the streamer refuses to start. */
  required?: string;
  /** The connections 2,000 instruments take. */
  floodConnections: number;
}

const traded = Date.UTC(2026, 10, 27, 4, 30, 15);
const INFY = { symbol: 'INFY', exchange: 'NSE' as const };
/** `rupees` moved by `by`, to the paisa. */
const moved = (rupees: number, by: number) => Math.round((rupees + by) * 100) / 100;

/** Describes the suite for one broker feed. */
export function describeBrokerFeed<F extends FeedFake>(c: BrokerFeedCase<F>): void {
  const { nse, bse } = c.listed;
  const WATCH = [
    { symbol: nse.symbol, exchange: 'NSE' as const },
    { symbol: bse.symbol, exchange: 'BSE' as const },
    INFY,
  ];

  describe(`streamer: QUOTE_PROVIDER=${c.source} against ${c.fakeName} and scrip master`, function () {
    this.timeout(60_000);
    let fake: F;
    let masters: FakeScripMasters;
    before(async () => (masters = await startFakeScripMasters()));
    after(() => masters.close());
    beforeEach(async () => {
      fake = await c.startFake();
      c.listTwo(masters, fake);
      masters.release();
    });
    afterEach(() => fake.close());

    const env = () => c.env(fake, masters);
    const liveState = async (run: Awaited<ReturnType<typeof runBrokerFeed>>) =>
      (await run.bus.getFeedState())?.state === 'live';

    it('polls the fallback until the scrip master loads, then streams live; an unlisted instrument stays polled', async () => {
      masters.hold();
      const run = await runBrokerFeed(env(), WATCH);
      try {
        await waitFor(`${nse.symbol} from the fallback before the master`, () =>
          run.quotesOf(nse.symbol).find((q) => q.source === 'simulated'),
        );
        expect(fake.subscribed().size).to.equal(0);
        expect((await run.bus.getFeedState())?.state).to.equal('fallback');

        masters.release();
        await waitFor('both subscribed by their keys', () => fake.subscribed().size === 2);
        expect([...fake.subscribed()].sort()).to.deep.equal([nse.key, bse.key].sort());
        await waitFor('live', () => liveState(run));
        c.tick(fake, nse.key, nse.price, traded);
        const quote = await waitFor(`${nse.symbol} from ${c.source}`, () =>
          run.quotesOf(nse.symbol).find((q) => q.source === c.source && q.ltp === nse.price),
        );
        expect(quote).to.include({ exchange: 'NSE', asOf: traded, delayMinutes: 0 });

        const state = await run.bus.getFeedState();
        expect(state).to.deep.include({ provider: c.source, state: 'live' });
        expect(state?.instruments.unsupported).to.deep.equal(['NSE:INFY']);
        const before = run.quotesOf('INFY').length;
        await waitFor(
          'INFY (not in the master) still polled while live',
          () => run.quotesOf('INFY').length > before,
        );
      } finally {
        await run.stop();
      }
    });

    it('reconnects and subscribes again when the feed is killed mid-stream', async () => {
      const run = await runBrokerFeed(env(), WATCH);
      try {
        await waitFor('subscribed', () => fake.subscribed().size === 2);
        const first = moved(nse.price, -2.5);
        c.tick(fake, nse.key, first, traded);
        await waitFor('a first quote', () => run.quotesOf(nse.symbol).find((q) => q.ltp === first));
        await fake.kill();
        await sleep(300);
        await fake.restart();
        await waitFor('subscribed again', () => fake.subscribed().size === 2);
        c.tick(fake, bse.key, bse.price, traded + 1000);
        const quote = await waitFor(`${bse.symbol} after the restart`, () =>
          run.quotesOf(bse.symbol).find((q) => q.ltp === bse.price),
        );
        expect(quote).to.include({ source: c.source, exchange: 'BSE', delayMinutes: 0 });
      } finally {
        await run.stop();
      }
    });

    it('connects again when started after a stop (the streamer losing the lead, then regaining it)', async () => {
      const config = parseConfig(env(), 'streamer');
      const stream = createStream(c.source, config, {
        log: captureLog().log,
        credentials: credentialsFromEnvironment(c.source, config),
      });
      const quotes: StreamQuote[] = [];
      const handlers = { onQuote: (quote: StreamQuote) => void quotes.push(quote), onState: () => {} };
      stream.watch(WATCH);
      stream.start(handlers);
      await waitFor('subscribed', () => fake.subscribed().size === 2);
      await stream.stop();
      await waitFor('closed', () => fake.sockets.size === 0);
      stream.watch(WATCH);
      stream.start(handlers);
      try {
        await waitFor('subscribed again', () => fake.subscribed().size === 2);
        const price = moved(nse.price, 2.5);
        c.tick(fake, nse.key, price, traded);
        await waitFor('a quote after the restart', () => quotes.find((quote) => quote.ltp === price));
      } finally {
        await stream.stop();
      }
    });

    it(`falls back on ${c.refusal.title} and streams again once new credentials arrive`, async () => {
      const run = await runBrokerFeed({ ...env(), ...c.refusal.env }, WATCH);
      try {
        if (c.refusal.expire) {
          await waitFor('subscribed', () => fake.subscribed().size === 2);
          await waitFor('live', () => liveState(run));
          c.refusal.expire(fake);
        }
        const refused = await waitFor('the fallback in force', async () => {
          const state = await run.bus.getFeedState();
          return state?.reason && c.refusal.reason.test(state.reason) ? state : undefined;
        });
        expect(refused).to.include({ provider: c.source, state: 'fallback', fallback: 'simulated' });
        const published = run.batches.length;
        await waitFor(`${nse.symbol} from the fallback`, () =>
          run.batches
            .slice(published)
            .find((b) => b.source === 'simulated' && b.quotes.some((q) => q.symbol === nse.symbol)),
        );

        run.feed.setCredentials(c.renew(fake));
        await waitFor('subscribed with the new credentials', () => fake.subscribed().size === 2);
        const price = moved(nse.price, 7.5);
        c.tick(fake, nse.key, price, traded);
        await waitFor(`${nse.symbol} from ${c.source}`, () =>
          run.quotesOf(nse.symbol).find((q) => q.source === c.source && q.ltp === price),
        );
        expect((await run.bus.getFeedState())?.state).to.equal('live');
      } finally {
        await run.stop();
      }
    });

    it("without credentials polls the fallback, and streams once the operator's arrive", async () => {
      const { [c.noCredentials.variable]: _dropped, ...without } = env();
      const run = await runBrokerFeed(without, WATCH);
      try {
        const waiting = await waitFor('the fallback in force', async () => {
          const state = await run.bus.getFeedState();
          return state?.state === 'fallback' ? state : undefined;
        });
        expect(waiting.reason).to.contain(c.noCredentials.reason);
        expect(fake.sockets.size).to.equal(0);
        run.feed.setCredentials(c.renew(fake));
        await waitFor('subscribed', () => fake.subscribed().size === 2);
        const price = moved(nse.price, -1.5);
        c.tick(fake, nse.key, price, traded);
        await waitFor(`${nse.symbol} from ${c.source}`, () =>
          run.quotesOf(nse.symbol).find((q) => q.source === c.source && q.ltp === price),
        );
      } finally {
        await run.stop();
      }
    });

    it('coalesces a flood of 2,000 instruments ticking several times a second into batches, the latest price winning', async () => {
      const watched = manyInstruments(2000);
      const key = c.listMany(masters, watched);
      const run = await runBrokerFeed({ ...env(), FEED_BATCH_MS: '200' }, watched);
      try {
        await waitFor('2,000 subscribed', () => fake.subscribed().size === 2000, 30_000);
        expect(fake.sockets.size).to.equal(c.floodConnections);
        await waitFor('live', () => liveState(run));
        const published = run.batches.length;
        let sent = 0;
        for (let round = 1; round <= 4; round++) {
          for (let i = 0; i < watched.length; i++)
            for (let again = 1; again <= 3; again++, sent++)
              c.tick(fake, key(i), 1000 + round + again / 4, traded + round * 1000);
          await sleep(250);
        }
        const last = (symbol: string) => run.quotesOf(symbol).at(-1)?.ltp;
        await waitFor('every instrument at its last price', () =>
          watched.every((w) => last(w.symbol) === 1004.75),
        );
        const flood = run.batches.slice(published).filter((b) => b.source === c.source);
        const quotes = flood.reduce((n, b) => n + b.quotes.length, 0);
        for (const batch of flood)
          expect(new Set(batch.quotes.map((q) => q.symbol)).size).to.equal(batch.quotes.length);
        expect(quotes).to.be.lessThan(sent / 2);
      } finally {
        await run.stop();
      }
    });

    const refusedWithout = c.required ? `, and refused without ${c.required}` : '';
    it(`is built by the configured streamer from its variables${refusedWithout}`, async () => {
      const bus = createMemoryBus();
      await bus.replaceWatchSet(WATCH);
      const config = parseConfig(env(), 'streamer');
      const streamer = createConfiguredStreamer(config, { bus, log: captureLog().log });
      streamer.start();
      try {
        await waitFor(`subscribed at ${c.broker}`, () => fake.subscribed().size === 2);
      } finally {
        await streamer.stop();
      }
      if (c.required) {
        const { [c.required]: _dropped, ...without } = env();
        expect(() =>
          createConfiguredStreamer(parseConfig(without, 'streamer'), { bus, log: captureLog().log }),
        )
          .to.throw(ConfigError)
          .with.property('message')
          .that.contains(`${c.required} is required when QUOTE_PROVIDER=${c.source}`);
      }
      await bus.close();
    });
  });
}
