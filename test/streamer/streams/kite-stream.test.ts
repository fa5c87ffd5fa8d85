import { expect } from 'chai';
import WebSocket from 'ws';
import type { WatchedInstrument } from '../../../streamer/src/providers/types.ts';
import { createKiteStream } from '../../../streamer/src/streams/kite/index.ts';
import type { QuoteStream, StreamQuote, StreamState } from '../../../streamer/src/streams/types.ts';
import { startFakeKiteTicker, type FakeKiteTicker } from '../../helpers/fake-brokers/kite-ticker.ts';
import { captureLog } from '../../helpers/log.ts';
import { sleep, waitFor } from '../../helpers/wait.ts';

const TATAMOTORS: WatchedInstrument = { symbol: 'TATAMOTORS', exchange: 'NSE' };
const INFY: WatchedInstrument = { symbol: 'INFY', exchange: 'NSE' };

/** A stream on the fake, with what it reported. */
function streamOn(
  fake: FakeKiteTicker,
  watchdogMs = 5000,
  now?: () => number,
  accessToken = fake.accessToken,
) {
  const { log, lines } = captureLog();
  const quotes: StreamQuote[] = [];
  const states: StreamState[] = [];
  const unsupportedReports: WatchedInstrument[][] = [];
  const stream = createKiteStream({
    apiKey: fake.apiKey,
    apiUrl: fake.url,
    wsUrl: fake.wsUrl,
    credentials: { accessToken },
    log,
    now,
    timing: { watchdogMs, initialBackoffMs: 100, maxBackoffMs: 800, limitedBackoffMs: 800, dayCheckMs: 100 },
  });
  const latest = () => new Map(quotes.map((q) => [`${q.exchange}:${q.symbol}`, q]));
  const state = () => states.at(-1)?.state;
  const start = () =>
    stream.start({
      onQuote: (quote) => quotes.push(quote),
      onState: (s) => states.push(s),
      onUnsupported: (list) => unsupportedReports.push(list),
    });
  return { stream, quotes, states, state, latest, lines, unsupportedReports, start };
}

/** `n` NSE equities listed by the fake. */
function listMany(fake: FakeKiteTicker, n: number, prefix = 'SYM') {
  return fake.addInstruments(
    Array.from({ length: n }, (_, i) => ({ symbol: `${prefix}${i}`, exchange: 'NSE' })),
  );
}

const asWatched = (list: { symbol: string; exchange: 'NSE' | 'BSE' }[]): WatchedInstrument[] =>
  list.map(({ symbol, exchange }) => ({ symbol, exchange }));

describe('Kite ticker stream (against the fake ticker)', function () {
  this.timeout(60_000);
  let fake: FakeKiteTicker;
  const streams: QuoteStream[] = [];

  beforeEach(async () => {
    fake = await startFakeKiteTicker();
  });
  afterEach(async () => {
    await Promise.all(streams.splice(0).map((s) => s.stop()));
    await fake.close();
  });

  function open(watchdogMs?: number, now?: () => number, accessToken?: string) {
    const s = streamOn(fake, watchdogMs, now, accessToken);
    streams.push(s.stream);
    return s;
  }

  it('goes live in full mode and passes quotes with the exchange time; unknown symbols are unsupported', async () => {
    const s = open();
    s.start();
    await waitFor('live', () => s.state() === 'live');
    const { unsupported } = s.stream.watch([TATAMOTORS, INFY, { symbol: 'NOSUCHCO', exchange: 'NSE' }]);
    expect(unsupported).to.deep.equal([{ symbol: 'NOSUCHCO', exchange: 'NSE' }]);
    const connection = await waitFor(
      'subscribed',
      () => fake.connections()[0]?.subscribed.size === 2 && fake.connections()[0],
    );
    await waitFor('full mode', () => [...connection.subscribed.values()].every((mode) => mode === 'full'));

    const traded = Date.UTC(2026, 10, 27, 4, 15, 3);
    fake.tick([{ token: 884737, ltp: 401.35, close: 398.1, exchangeTime: traded }]);
    const quote = await waitFor('a quote', () => s.latest().get('NSE:TATAMOTORS'));
    expect(quote).to.deep.include({ symbol: 'TATAMOTORS', exchange: 'NSE', ltp: 401.35, prevClose: 398.1 });
    expect(quote.exchangeTime).to.equal(traded);
    expect(quote.receivedAt).to.be.closeTo(Date.now(), 5000);
  });

  it('subscribes and unsubscribes by difference (A,B then B,C: unsubscribe A, subscribe C)', async () => {
    const [a, b, c] = listMany(fake, 3);
    const s = open();
    s.start();
    s.stream.watch(asWatched([a!, b!]));
    const connection = await waitFor(
      'A and B',
      () => fake.connections()[0]?.subscribed.size === 2 && fake.connections()[0],
    );
    const before = connection.messages.length;
    s.stream.watch(asWatched([b!, c!]));
    await waitFor('C', () => connection.subscribed.get(c!.token) === 'full');
    expect(connection.messages.slice(before)).to.deep.equal([
      { a: 'unsubscribe', v: [a!.token] },
      { a: 'subscribe', v: [c!.token] },
      { a: 'mode', v: ['full', [c!.token]] },
    ]);
    expect([...connection.subscribed.keys()].sort()).to.deep.equal([b!.token, c!.token].sort());
  });

  it('reconnects after the ticker is killed and restarted, resubscribes, and quotes again', async () => {
    const s = open();
    s.start();
    s.stream.watch([TATAMOTORS, INFY]);
    await waitFor(
      'live with both',
      () => s.state() === 'live' && fake.connections()[0]?.subscribed.size === 2,
    );
    await fake.kill();
    await waitFor('down', () => s.state() === 'down');
    await sleep(300);
    await fake.restart();
    await waitFor('live again', () => s.state() === 'live');
    const connection = await waitFor(
      'resubscribed',
      () => fake.connections()[0]?.subscribed.size === 2 && fake.connections()[0],
    );
    await waitFor('full mode', () => [...connection.subscribed.values()].every((mode) => mode === 'full'));
    fake.tick([{ token: 408065, ltp: 1573.7, exchangeTime: Date.now() }]);
    expect((await waitFor('a quote', () => s.latest().get('NSE:INFY'))).ltp).to.equal(1573.7);
  });

  it('on a 403 (expired token) reports auth_refused and stops trying until new credentials arrive', async () => {
    const s = open();
    s.start();
    s.stream.watch([TATAMOTORS]);
    await waitFor('live', () => s.state() === 'live' && fake.connections().length === 1);
    fake.expireToken();
    const refused = await waitFor('refused', () => s.states.find((st) => st.state === 'auth_refused'));
    expect(refused).to.have.property('reason').that.matches(/403/);
    const attempts = fake.upgrades.length;
    await sleep(2000); // more than the longest back-off
    expect(fake.upgrades.length, 'upgrades after the refusal').to.equal(attempts);
    expect(s.state()).to.equal('auth_refused');

    s.stream.setCredentials({ accessToken: fake.issueToken() });
    await waitFor(
      'live again',
      () => s.state() === 'live' && fake.connections()[0]?.subscribed.get(884737) === 'full',
    );
    fake.tick([{ token: 884737, ltp: 405, exchangeTime: Date.now() }]);
    expect((await waitFor('a quote', () => s.quotes.find((q) => q.ltp === 405))).symbol).to.equal(
      'TATAMOTORS',
    );
  });

  it('refused on the instruments list (a stale token at start): auth_refused, no socket, live on new credentials', async () => {
    const s = open(undefined, undefined, 'yesterdays-token');
    s.start();
    s.stream.watch([TATAMOTORS]);
    const refused = await waitFor('refused', () => s.states.find((st) => st.state === 'auth_refused'));
    expect(refused)
      .to.have.property('reason')
      .that.matches(/instruments/);
    await sleep(500);
    expect(fake.upgrades).to.deep.equal([]);
    s.stream.setCredentials({ accessToken: fake.accessToken });
    await waitFor(
      'live',
      () => s.state() === 'live' && fake.connections()[0]?.subscribed.get(884737) === 'full',
    );
  });

  it('on a 429 (every connection of the key taken) waits longer, then connects once one is free', async () => {
    const url = `${fake.wsUrl}?api_key=${fake.apiKey}&access_token=${fake.accessToken}`;
    const others = await Promise.all(
      [1, 2, 3].map(async () => {
        const ws = new WebSocket(url);
        await new Promise((resolve) => ws.once('open', resolve));
        return ws;
      }),
    );
    const s = open();
    s.start();
    s.stream.watch([TATAMOTORS]);
    const down = await waitFor('down', () => s.states.find((st) => st.state === 'down'));
    expect(down).to.have.property('reason').that.matches(/429/);
    const refusedAt = fake.upgrades.length;
    await sleep(350); // several ordinary back-offs (100 ms and up), less than the 800 ms after a 429
    expect(fake.upgrades.length).to.equal(refusedAt);
    others[0]!.close();
    await waitFor('live', () => s.state() === 'live', 10_000);
    for (const ws of others) ws.terminate();
  });

  it('treats 5 s of silence (here shortened) as a dead socket and reconnects', async () => {
    const s = open(1200);
    s.start();
    s.stream.watch([TATAMOTORS]);
    await waitFor('live', () => s.state() === 'live');
    fake.muted = true;
    const down = await waitFor('down', () => s.states.find((st) => st.state === 'down'));
    expect(down)
      .to.have.property('reason')
      .that.matches(/no frame/);
    fake.muted = false;
    await waitFor('live again', () => s.state() === 'live');
  });

  it("reloads Kite's instruments list on a new IST day and follows a token that changed", async () => {
    let clock = Date.UTC(2026, 10, 26, 10, 0);
    const s = open(undefined, () => clock);
    s.start();
    s.stream.watch([TATAMOTORS]);
    await waitFor('subscribed', () => fake.connections()[0]?.subscribed.get(884737) === 'full');
    const listing = fake.instruments.find((i) => i.symbol === 'TATAMOTORS')!;
    Object.assign(listing, { token: 884737 + 256 * 1000, exchangeToken: 3456 + 1000 });
    await sleep(300);
    expect(fake.connections()[0]!.subscribed.has(884737), 'the same day: the old token').to.equal(true);

    clock += 24 * 3600_000;
    const moved = await waitFor(
      'the new token',
      () => fake.connections()[0]?.subscribed.get(listing.token) === 'full',
    );
    expect(moved).to.equal(true);
    expect(fake.connections()[0]!.subscribed.has(884737)).to.equal(false);
    fake.tick([{ token: listing.token, ltp: 777.7, exchangeTime: clock }]);
    expect((await waitFor('a quote', () => s.quotes.find((q) => q.ltp === 777.7))).symbol).to.equal(
      'TATAMOTORS',
    );
  });

  it('carries the latest price of each of 2,000 instruments ticking 4 times a second', async () => {
    const listed = listMany(fake, 2000);
    const s = open();
    s.start();
    s.stream.watch(asWatched(listed));
    await waitFor(
      'all subscribed',
      () =>
        fake.connections()[0]?.subscribed.size === 2000 &&
        [...fake.connections()[0]!.subscribed.values()].every((mode) => mode === 'full'),
    );
    await fake.flood(
      listed.map((i) => i.token),
      4,
      3000,
    );
    const expected = new Map(listed.map((i) => [`NSE:${i.symbol}`, fake.state.get(i.token)!.ltp]));
    await waitFor('the last round', () => {
      const latest = s.latest();
      return [...expected].every(([key, ltp]) => latest.get(key)?.ltp === ltp);
    });
    expect(s.quotes.length).to.be.at.least(2000 * 12);
  });

  it('opens a second connection past 3,000 instruments (4,000 → 3,000 + 1,000)', async () => {
    fake.gzipInstruments = true;
    const listed = listMany(fake, 4000);
    const s = open();
    s.start();
    await waitFor('live', () => s.state() === 'live');
    expect(s.stream.watch(asWatched(listed)).unsupported).to.deep.equal([]);
    await waitFor(
      'two connections',
      () =>
        fake.connections().length === 2 &&
        fake.connections().reduce((n, c) => n + c.subscribed.size, 0) === 4000,
    );
    expect(
      fake
        .connections()
        .map((c) => c.subscribed.size)
        .sort(),
    ).to.deep.equal([1000, 3000]);
    await waitFor('live on both', () => s.state() === 'live');
  });

  it('carries 9,000 of 10,000 instruments on 3 connections and reports 1,000 unsupported once its list loads', async () => {
    const listed = listMany(fake, 10_000);
    const s = open();
    expect(s.stream.watch(asWatched(listed)).unsupported).to.deep.equal([]); // not known before the list
    s.start();
    const reported = await waitFor('unsupported', () => s.unsupportedReports.at(-1));
    expect(reported).to.have.length(1000);
    await waitFor(
      'three full connections',
      () => fake.connections().length === 3 && fake.connections().every((c) => c.subscribed.size === 3000),
    );
    expect(fake.upgrades.filter((status) => status === 429)).to.deep.equal([]);
    const carried = new Set(fake.connections().flatMap((c) => [...c.subscribed.keys()]));
    const unsupported = new Set(reported.map((i) => i.symbol));
    expect(listed.every((i) => carried.has(i.token) !== unsupported.has(i.symbol))).to.equal(true);
    expect(s.stream.watch(asWatched(listed)).unsupported).to.have.length(1000);
  });

  it('the fake refuses a 4th connection for the key with 429 and a bad token with 403', async () => {
    const url = (token: string) => `${fake.wsUrl}?api_key=${fake.apiKey}&access_token=${token}`;
    const status = (token: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url(token));
        ws.on('open', () => resolve(101));
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on('error', () => undefined);
      });
    expect(await status('wrong')).to.equal(403);
    expect([
      await status(fake.accessToken),
      await status(fake.accessToken),
      await status(fake.accessToken),
    ]).to.deep.equal([101, 101, 101]);
    expect(await status(fake.accessToken)).to.equal(429);
  });
});
