/**
 * Redis stopped while tick batches flow and rules are armed (separate processes: the server,
 * `npm run streamer` with replayed quotes, a private redis-server, PostgreSQL). Nothing exits,
 * the socket stays connected and the API keeps serving; both processes reconnect by themselves
 * and rebuild what Redis lost (the watch set, the leader lock); a rule whose price crossed
 * during the outage fires on the first batch after it, and every alert is mailed exactly once.
 * A browser tab on the built client shows Live, then Reconnecting while Redis is down (its own
 * socket stays up, but no price can reach it), then Live again. The quick form stops Redis for 3 s; `npm run test:soak` for 10 s.
 */
import type { QuotesMessage } from '@app/common/realtime/events';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { Browser, Page } from 'playwright-core';
import { signedInContext } from '../e2e/support.ts';
import { launchBrowser, requireBuiltClient } from '../helpers/browser.ts';
import { apiClient } from '../helpers/http.ts';
import type { RunningProcess } from '../helpers/processes.ts';
import { freePort, type RedisServer } from '../helpers/services.ts';
import type { TestSocket } from '../helpers/sockets.ts';
import {
  type ClusterServices,
  executionsOf,
  type Investor,
  investorWithTab,
  LONG_FORM,
  printTailsOnFailure,
  seedQuotes,
  type ServerProcess,
  signInAt,
  sleep,
  startClusterServices,
  startServerProcess,
  startStreamerProcess,
  tail,
  type TestDatabase,
  waitFor,
} from './support/cluster.ts';
import type { MailProvider } from './support/mail-provider.ts';
import { replayBatches } from '../helpers/replay.ts';

const OUTAGE_MS = LONG_FORM ? 10_000 : 3_000;
/** Long enough that the batch after the first cannot go out before Redis is stopped. */
const INTERVAL_MS = 3_000;

/**
 * Batch 1: RELIANCE holds at 1000, TCS falls through its stop (fires before the outage).
 * Batch 2, the first after the outage: RELIANCE at 900 (crossed while Redis was down), TCS
 * lower still (must not fire again). Then both back from 1000 up: no other batch crosses RELIANCE.
 */
const REPLAY = replayBatches([
  { RELIANCE: 1000, TCS: 900 },
  { RELIANCE: 900, TCS: 890 },
  // Each a rupee higher: the sockets carry only prices that changed.
  ...Array.from({ length: 8 }, (_, i) => ({ RELIANCE: 1000 + i, TCS: 1000 + i })),
]);

describe(`reliability: Redis stopped for ${OUTAGE_MS / 1000} s while batches flow (processes)`, function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let redis: RedisServer;
  let mail: MailProvider;
  let server: ServerProcess;
  let streamer: RunningProcess | undefined;
  let socket: TestSocket | undefined;
  let cluster: ClusterServices | undefined;
  let env: Record<string, string>;
  let browser: Browser | undefined;

  before(async () => {
    requireBuiltClient();
    const port = await freePort();
    cluster = await startClusterServices({
      name: 'pg-redis-outage-',
      replay: REPLAY,
      intervalMs: INTERVAL_MS,
      // The tab's origin: the socket's Origin check lets it in.
      env: { APP_URL: `http://127.0.0.1:${port}` },
    });
    ({ db, redis, mail, env } = cluster);
    server = await startServerProcess(env, port);
    browser = await launchBrowser();
  });
  printTailsOnFailure(() => ({ servers: [server], streamers: [streamer] }));
  after(async () => {
    await browser?.close();
    socket?.close();
    await streamer?.stop();
    await server?.proc.stop();
    await cluster?.stop();
  });

  it('keeps serving, reconnects, rebuilds the watch set and leader lock, fires once on the first batch after', async () => {
    const api = apiClient(server.url);
    await seedQuotes(db, { RELIANCE: 1000, TCS: 1000, INFY: 1000 });
    const investor = await investorWithTab(server.url, ['RELIANCE', 'TCS']);
    socket = investor.socket;
    const { user, alerts } = investor;
    expect(investor.rules.map((r) => r.computed_trigger_price)).to.deep.equal([950, 950]);
    const quotes: QuotesMessage[] = [];
    const disconnects: string[] = [];
    socket.on('quotes', (m) => quotes.push(m));
    socket.on('disconnect', (reason) => disconnects.push(reason));
    const priceOf = (m: QuotesMessage, symbol: string) => m.quotes.find((q) => q.symbol === symbol)?.ltp;

    // The tab is open before the first batch: between that batch and the outage there is no time.
    const tab = await openDashboard(browser!, server.url, user);
    await tab.locator('.live-indicator:not([data-tone="pending"])').waitFor({ timeout: 15_000 });
    streamer = startStreamerProcess(env);
    await waitFor('the first batch and the TCS alert', () =>
      quotes.length >= 1 && alerts.some((a) => a.symbol === 'TCS') ? true : undefined,
    );
    await expectIndicator(tab, 'Live');
    await redis.stop();
    const stoppedAt = Date.now();
    expect(
      quotes.map((m) => priceOf(m, 'RELIANCE')),
      'precondition: Redis stopped before the second batch went out',
    ).to.deep.equal([1000]);

    // During the outage: the API serves (reads and writes), readiness says Redis is down.
    expect((await api.get('/api/holdings', user.token)).status).to.equal(200);
    const added = await api.post(
      '/api/holdings/manual',
      { symbol: 'INFY', exchange: 'NSE', quantity: 2, average_price: 1000 },
      user.token,
    );
    expect(added.status, added.body.error).to.equal(201);
    const ready = await api.get<{ database: boolean; redis: boolean }>('/api/ready');
    expect(ready.status).to.equal(503);
    expect(ready.body.data).to.deep.equal({ database: true, redis: false });
    expect((await signInAt(server.url)).token).to.be.a('string');
    await expectIndicator(tab, 'Reconnecting');
    expect(await executionsOf(db, [user.id]), 'RELIANCE has not fired').to.have.length(1);
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt)));
    expect(server.proc.child.exitCode, tail(server.proc)).to.equal(null);
    expect(streamer.child.exitCode, tail(streamer)).to.equal(null);
    expect(disconnects, 'the socket stays connected to the server').to.deep.equal([]);
    expect(quotes, 'nothing flows while Redis is down').to.have.length(1);

    await redis.start();
    const after = await waitFor('the first batch after the outage', () => quotes[1], 30_000);
    expect(priceOf(after, 'RELIANCE'), 'the first batch after carries the crossed price').to.equal(900);
    await expectIndicator(tab, 'Live');
    const fired = await waitFor('RELIANCE to fire', async () => {
      const rows = await executionsOf(db, [user.id]);
      return rows.some((r) => r.symbol === 'RELIANCE') ? rows : undefined;
    });
    expect(fired.map((r) => [r.symbol, Number(r.execution_price)])).to.deep.equal([
      ['TCS', 900],
      ['RELIANCE', 900],
    ]);

    // Redis lost everything: the watch set (with the holding added during the outage) and the
    // leader lock are back, and batches flow again.
    const inspect = new Redis(redis.url);
    try {
      const watched = await waitFor('the watch set to be rebuilt', async () => {
        const members = await inspect.smembers('market:watch');
        return members.length >= 3 ? members.sort() : undefined;
      });
      expect(watched).to.deep.equal(['NSE:INFY', 'NSE:RELIANCE', 'NSE:TCS']);
      expect(await inspect.get('market:streamer:leader')).to.be.a('string');
    } finally {
      inspect.disconnect();
    }
    await waitFor('batches to flow again', () => (quotes.length >= 4 ? true : undefined), 30_000);
    expect(quotes.slice(2).map((m) => priceOf(m, 'RELIANCE'))).to.satisfy((p: number[]) =>
      p.every((x) => x >= 1000),
    );
    expect((await api.get('/api/ready')).status).to.equal(200);

    // Exactly one alert and one email per crossing: TCS before, RELIANCE after. A queue job
    // that could not be enqueued while Redis came back is re-enqueued by the sweeper (≤ 45 s).
    const emails = await waitFor(
      'both emails',
      () => (mail.accepted().length >= 2 ? mail.accepted() : undefined),
      60_000,
    );
    await sleep(1000);
    expect(mail.accepted()).to.have.length(2);
    expect(emails.map((m) => m.subject.split(' ')[1]).sort()).to.deep.equal(['RELIANCE', 'TCS']);
    expect(await executionsOf(db, [user.id])).to.have.length(2);
    expect(alerts.map((a) => a.symbol)).to.deep.equal(['TCS', 'RELIANCE']);
    expect(disconnects).to.deep.equal([]);
    expect(server.proc.child.exitCode, tail(server.proc)).to.equal(null);
    expect(streamer.child.exitCode, tail(streamer)).to.equal(null);
  });

  it('still shuts down on SIGTERM while Redis is down (server and streamer exit 0)', async () => {
    await redis.stop();
    await sleep(500);
    expect(await server.proc.stop('SIGTERM'), tail(server.proc)).to.equal(0);
    expect(await streamer!.stop('SIGTERM'), tail(streamer!)).to.equal(0);
  });
});

/** The dashboard in a fresh context signed in as `user` (tokens stored as after signing in). */
async function openDashboard(browser: Browser, url: string, user: Investor): Promise<Page> {
  const page = await (await signedInContext(browser, { url }, user)).newPage();
  await page.goto(`${url}/dashboard`);
  return page;
}

/** Waits for the header's live indicator to read `label`. */
async function expectIndicator(page: Page, label: 'Live' | 'Reconnecting'): Promise<void> {
  const indicator = page.locator('.live-indicator .live-label');
  await indicator.filter({ hasText: new RegExp(`^${label}$`) }).waitFor({ timeout: 15_000 });
  expect(await indicator.textContent(), 'the header says').to.equal(label);
}
