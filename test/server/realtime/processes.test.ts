import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { QuotesMessage } from '@app/common/realtime/events';
import { expect } from 'chai';
import { apiClient } from '../../helpers/http.ts';
import { startProcess, waitHealthy, type RunningProcess } from '../../helpers/processes.ts';
import { testServices } from '../../helpers/root-hooks.ts';
import { freePort, startRedisServer, type RedisServer } from '../../helpers/services.ts';
import { connected, connectSocket } from '../../helpers/sockets.ts';

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

describe('separate processes: Redis, the server, and `npm run streamer` with replay quotes', function () {
  this.timeout(90_000);
  let redis: RedisServer;
  let server: RunningProcess;
  let streamer: RunningProcess | undefined;
  let url: string;
  let replayFile: string;
  let env: Record<string, string>;

  before(async () => {
    redis = await startRedisServer();
    const dir = mkdtempSync(path.join(tmpdir(), 'pg-proc-'));
    replayFile = path.join(dir, 'replay.csv');
    writeFileSync(replayFile, REPLAY);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      REDIS_URL: redis.url,
      JWT_SECRET: 'process-test-secret-that-is-long-enough-123',
      QUOTE_PROVIDER: 'replay',
      REPLAY_FILE: replayFile,
      QUOTE_INTERVAL_MS: '700',
      ...(testServices().databaseUrl ? { DATABASE_URL: testServices().databaseUrl! } : {}),
    };
    server = startProcess('server/src/main.ts', env);
    await waitHealthy(`${url}/api/health`, server);
  });
  after(async () => {
    await streamer?.stop();
    await server?.stop();
    await redis?.stop();
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

    streamer = startProcess('streamer/src/main.ts', env);
    const deadline = Date.now() + 20_000;
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
  });
});

describe('separate processes: two streamers, leader failover and a Redis restart', function () {
  this.timeout(120_000);
  let redis: RedisServer;
  let server: RunningProcess;
  const streamers: RunningProcess[] = [];
  let url: string;
  let env: Record<string, string>;
  const INTERVAL = 400;

  before(async () => {
    redis = await startRedisServer();
    const dir = mkdtempSync(path.join(tmpdir(), 'pg-proc-'));
    const replayFile = path.join(dir, 'replay.csv');
    writeFileSync(replayFile, 'time,symbol,exchange,price\n1,SBIN,NSE,800\n2,SBIN,NSE,801\n3,SBIN,NSE,802\n');
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      REDIS_URL: redis.url,
      JWT_SECRET: 'process-test-secret-that-is-long-enough-123',
      QUOTE_PROVIDER: 'replay',
      REPLAY_FILE: replayFile,
      REPLAY_LOOP: 'true',
      QUOTE_INTERVAL_MS: String(INTERVAL),
      ...(testServices().databaseUrl ? { DATABASE_URL: testServices().databaseUrl! } : {}),
    };
    server = startProcess('server/src/main.ts', env);
    await waitHealthy(`${url}/api/health`, server);
  });
  after(async () => {
    for (const s of streamers) await s.stop();
    await server?.stop();
    await redis?.stop();
  });

  const published = (p: RunningProcess) =>
    (p.output().match(/"batch":"[^"]+"[^\n]*"poll cycle"/g) ?? []).length;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

    streamers.push(startProcess('streamer/src/main.ts', env), startProcess('streamer/src/main.ts', env));
    await sleep(INTERVAL * 8);
    const [first, second] = streamers.map(published) as [number, number];
    expect(first > 0 !== second > 0, `exactly one publishes (first ${first}, second ${second})`).to.equal(
      true,
    );
    const leader = first > 0 ? streamers[0]! : streamers[1]!;
    const standby = leader === streamers[0] ? streamers[1]! : streamers[0]!;

    await leader.stop('SIGKILL');
    const killedAt = Date.now();
    while (published(standby) === 0 && Date.now() - killedAt < 15_000) await sleep(50);
    expect(published(standby), 'the standby took over').to.be.greaterThan(0);
    const firstAfter = arrivals.find((t) => t > killedAt);
    expect(firstAfter, 'quotes reach the socket again').to.be.a('number');

    // Redis restarted while batches flow: nothing exits, batches flow again by themselves.
    await redis.stop();
    await sleep(INTERVAL * 3);
    await redis.start();
    const restartedAt = Date.now();
    while (!arrivals.some((t) => t > restartedAt + INTERVAL) && Date.now() - restartedAt < 30_000)
      await sleep(100);
    socket.close();
    expect(
      arrivals.some((t) => t > restartedAt),
      'batches flow again after the Redis restart',
    ).to.equal(true);
    expect(server.child.exitCode, server.output().slice(-2000)).to.equal(null);
    expect(standby.child.exitCode, standby.output().slice(-2000)).to.equal(null);
  });
});
