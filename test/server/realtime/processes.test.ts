/**
 * The scaled shape as separate processes: Redis, the server (server/src/main.ts, which runs no
 * streamer of its own when REDIS_URL is set) and `npm run streamer`; then two streamers, one
 * standing by, taking over within two intervals when the leader is killed.
 */
import type { QuotesMessage } from '@app/common/realtime/events';
import { expect } from 'chai';
import { apiClient } from '../../helpers/http.ts';
import { startNpmScript, type RunningProcess } from '../../helpers/processes.ts';
import { testServices } from '../../helpers/root-hooks.ts';
import type { RedisServer } from '../../helpers/services.ts';
import { connected, connectSocket } from '../../helpers/sockets.ts';
import { publishedBatchIds, tapTickBatches, type TickTap } from '../../helpers/tick-tap.ts';
import {
  startClusterServices,
  startServerProcess,
  type ClusterServices,
  type ServerProcess,
} from '../../reliability/support/cluster.ts';
import { sleep, waitFor } from '../../helpers/wait.ts';

/** Three batches: RELIANCE and TCS (held by Asha), INFY (held by Ravi), WIPRO (held by nobody). */
const REPLAY = `time,symbol,exchange,price,prev_close
1,RELIANCE,NSE,1300.00,1290.00
1,TCS,NSE,3500.00,3480.00
1,INFY,NSE,1500.00,1490.00
1,WIPRO,NSE,250.00,249.00
2,RELIANCE,NSE,1301.50,1290.00
2,TCS,NSE,3490.00,3480.00
2,INFY,NSE,1505.00,1490.00
3,RELIANCE,NSE,1299.00,1290.00
3,INFY,NSE,1502.00,1490.00
`;

/**
 * Redis, a replay of `csv` every `intervalMs`, a tap on the batches (listening before the server
 * starts: a streamer inside it would show up there) and the server process, on the run's
 * database (PGlite in its folder without one).
 */
async function startScaledServer(csv: string, intervalMs: number, env: Record<string, string> = {}) {
  const databaseUrl = testServices().databaseUrl;
  const cluster = await startClusterServices({
    name: 'pg-proc-',
    replay: csv,
    intervalMs,
    database: false,
    mail: false,
    env: { ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), ...env },
  });
  const tap = await tapTickBatches(cluster.redis.url);
  return { cluster, tap, server: await startServerProcess(cluster.env) };
}

describe('separate processes: Redis, the server, and `npm run streamer` with replay quotes', function () {
  this.timeout(90_000);
  let cluster: ClusterServices | undefined;
  let server: ServerProcess;
  let streamer: RunningProcess | undefined;
  let tap: TickTap;
  let url: string;
  let env: Record<string, string>;

  before(async () => {
    ({ cluster, tap, server } = await startScaledServer(REPLAY, 700));
    ({ url } = server);
    ({ env } = cluster);
  });
  after(async () => {
    tap?.close();
    await streamer?.stop();
    await server?.proc.stop();
    await cluster?.stop();
  });

  it("delivers every batch in order to each user with only that user's instruments; refuses a bad token", async () => {
    const api = apiClient(url);
    const login = async (email: string) =>
      (await api.post<{ token: string }>('/api/auth/login', { email, name: email.split('@')[0] })).body.data!
        .token;
    const asha = await login(`asha-${Date.now()}@example.com`);
    const ravi = await login(`ravi-${Date.now()}@example.com`);
    const hold = (token: string, symbol: string) =>
      api.post('/api/holdings/manual', { symbol, exchange: 'NSE', quantity: 1, average_price: 100 }, token);
    await hold(asha, 'RELIANCE');
    await hold(asha, 'TCS');
    await hold(ravi, 'INFY');

    const a = connectSocket(url, asha);
    const r = connectSocket(url, ravi);
    const bad = connectSocket(url, 'forged.token.value');
    const refused = await connected(bad).then(
      () => 'connected',
      (e: Error) => e.message,
    );
    bad.close();
    expect(refused).to.equal('unauthorized');
    await Promise.all([connected(a), connected(r)]);
    const got = { a: [] as QuotesMessage[], r: [] as QuotesMessage[] };
    a.on('quotes', (m) => got.a.push(m));
    r.on('quotes', (m) => got.r.push(m));

    expect(tap.batches, 'no batch before `npm run streamer` starts').to.deep.equal([]);
    const started = startNpmScript('streamer', env);
    streamer = started;
    const deadline = Date.now() + 30_000;
    while ((got.a.length < 3 || got.r.length < 3) && Date.now() < deadline)
      await new Promise((res) => setTimeout(res, 100));
    a.close();
    r.close();

    const symbols = (msgs: QuotesMessage[]) =>
      msgs.map((m) => m.quotes.map((q) => `${q.symbol}@${q.ltp}`).sort());
    expect(symbols(got.a)).to.deep.equal([
      ['RELIANCE@1300', 'TCS@3500'],
      ['RELIANCE@1301.5', 'TCS@3490'],
      ['RELIANCE@1299'],
    ]);
    expect(symbols(got.r)).to.deep.equal([['INFY@1500'], ['INFY@1505'], ['INFY@1502']]);
    const ats = got.a.map((m) => m.at);
    expect(ats).to.deep.equal([...ats].sort((x, y) => x - y));

    // Every batch on Redis came from `npm run streamer`; the server polled nothing itself.
    // The streamer logs a batch just after publishing it, so its log can trail the sockets.
    const loggedAll = () =>
      tap.batches.every((b) => publishedBatchIds(started.output()).includes(b.batch.id));
    while (!loggedAll() && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    const fromStreamer = publishedBatchIds(started.output());
    expect(tap.batches.map((b) => b.batch.id)).to.deep.equal(fromStreamer.slice(0, tap.batches.length));
    expect(tap.batches.map((b) => b.batch.source)).to.deep.equal(['replay', 'replay', 'replay']);
    expect(server.proc.output(), 'the server logs no poll cycle of its own').to.not.contain('"poll cycle"');
  });
});

describe('separate processes: two streamers, leader failover and a Redis restart', function () {
  this.timeout(120_000);
  let cluster: ClusterServices | undefined;
  let redis: RedisServer;
  let server: ServerProcess;
  let tap: TickTap;
  const streamers: RunningProcess[] = [];
  let url: string;
  let env: Record<string, string>;
  /**
   * The lock lives one interval (at least 1 s, at most 15 s: streamer/src/main.ts) and a standby
   * asks for it every third of that, so a takeover needs at most 4/3 of an interval: within
   * the promised two from an interval of 1 s up.
   */
  const INTERVAL = 1500;

  before(async () => {
    ({ cluster, tap, server } = await startScaledServer(
      'time,symbol,exchange,price\n1,SBIN,NSE,800\n2,SBIN,NSE,801\n3,SBIN,NSE,802\n',
      INTERVAL,
      { REPLAY_LOOP: 'true' },
    ));
    ({ url } = server);
    ({ env, redis } = cluster);
  });
  after(async () => {
    tap?.close();
    for (const s of streamers) await s.stop();
    await server?.proc.stop();
    await cluster?.stop();
  });

  it('only one of two streamers polls; when it is killed the other takes over within two intervals', async () => {
    const api = apiClient(url);
    const token = (
      await api.post<{ token: string }>('/api/auth/login', {
        email: `f-${Date.now()}@example.com`,
        name: 'F',
      })
    ).body.data!.token;
    await api.post(
      '/api/holdings/manual',
      { symbol: 'SBIN', exchange: 'NSE', quantity: 1, average_price: 700 },
      token,
    );
    const socket = connectSocket(url, token);
    await connected(socket);
    const arrivals: number[] = [];
    socket.on('quotes', () => arrivals.push(Date.now()));

    streamers.push(startNpmScript('streamer', env), startNpmScript('streamer', env));
    // Two `npm run streamer` (npm, tsx) starting side by side: up to 30 s on a busy machine.
    await waitFor(
      'both streamers to start',
      () => streamers.every((s) => s.output().includes('"streamer starting"')),
      30_000,
    );
    await waitFor('four batches', () => tap.batches.length >= 4);
    const onRedis = tap.batches.slice(0, 4).map((b) => b.batch.id);
    // A streamer logs a batch just after publishing it, so its log can trail what Redis carried.
    await waitFor('a streamer to log the four batches', () =>
      streamers.some((s) => onRedis.every((id) => publishedBatchIds(s.output()).includes(id))),
    );
    const ids = streamers.map((s) => publishedBatchIds(s.output()));
    expect(
      ids.filter((list) => list.length > 0),
      `exactly one publishes (${ids[0]!.length}, ${ids[1]!.length})`,
    ).to.have.length(1);
    const leader = ids[0]!.length > 0 ? streamers[0]! : streamers[1]!;
    const standby = leader === streamers[0] ? streamers[1]! : streamers[0]!;
    expect(onRedis).to.deep.equal(publishedBatchIds(leader.output()).slice(0, onRedis.length));

    const killedAt = Date.now();
    await leader.stop('SIGKILL');
    await waitFor('the standby to publish', () => publishedBatchIds(standby.output()).length > 0, 15_000);
    const [firstId] = publishedBatchIds(standby.output());
    await waitFor('its batch on Redis', () => tap.batches.some((b) => b.batch.id === firstId));
    const takeover = tap.batches.find((b) => b.batch.id === firstId)!;
    expect(
      takeover.batch.at - killedAt,
      `the standby's first batch ${takeover.batch.at - killedAt} ms after the kill`,
    ).to.be.at.most(2 * INTERVAL);
    await waitFor('quotes on the socket again', () => arrivals.some((t) => t > killedAt));

    // Redis restarted while batches flow: nothing exits, batches flow again by themselves.
    await redis.stop();
    await sleep(INTERVAL * 2);
    await redis.start();
    const restartedAt = Date.now();
    await waitFor('batches after the Redis restart', () => arrivals.some((t) => t > restartedAt));
    socket.close();
    expect(server.proc.child.exitCode, server.proc.output().slice(-2000)).to.equal(null);
    expect(standby.child.exitCode, standby.output().slice(-2000)).to.equal(null);
  });
});
