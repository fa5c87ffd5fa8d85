/**
 * The soak (`npm run test:soak`, not in CI): SOAK_SOCKETS (2,000) sockets held for SOAK_MINUTES
 * (30) while the simulated market publishes one batch a second through Redis and trailing stops
 * track every user's first holding. Asserts that every batch reached every socket, that the
 * server's heap after a full GC stays within 10 % of where it was after the warm-up, and that the
 * p99 delivery latency stays steady; prints the figures of each window.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { STARTER_INSTRUMENTS } from '@app/common/instruments/starter';
import { expect } from 'chai';
import { bootApp, type TestApp } from '../helpers/app.ts';
import { apiClient } from '../helpers/http.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { sleep } from '../helpers/wait.ts';
import { signAsServer } from '../security/support/tokens.ts';
import type { FromClients, ToClients, WindowReport } from './clients.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const SOCKETS = Number(process.env.SOAK_SOCKETS ?? 2000);
const SOCKETS_PER_USER = 4;
const DURATION_MS = MINUTES * 60_000;
/** Ten windows; the first is the warm-up. */
const WINDOW_MS = Math.max(10_000, DURATION_MS / 10);
const SYMBOLS = [
  ...new Set(STARTER_INSTRUMENTS.filter((i) => i.exchange === 'NSE').map((i) => i.symbol)),
].slice(0, 50);

interface Window {
  index: number;
  heapMb: number;
  latency: WindowReport['latency'];
  batches: number;
  connected: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
};

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

describe(`soak: ${SOCKETS} sockets for ${MINUTES} minutes, one batch a second`, function () {
  this.timeout(DURATION_MS + 10 * 60_000);
  let app: TestApp;
  let clients: ChildProcess | undefined;

  before(async function () {
    this.timeout(10 * 60_000);
    app = await bootApp({
      withRedis: true,
      embeddedStreamer: true,
      env: { QUOTE_PROVIDER: 'simulated', QUOTE_INTERVAL_MS: '1000' },
    });
  });
  after(async () => {
    clients?.kill();
    await app?.close();
  });

  it('delivers every batch to every socket with flat memory and steady p99 latency', async () => {
    const api = apiClient(app.url);
    const people: SignedInUser[] = [];
    const tokens: string[] = [];
    // Tokens that outlive the soak: a 15-minute token would close its socket halfway through.
    const exp = Math.floor((Date.now() + DURATION_MS + 15 * 60_000) / 1000);
    const inParallel = async (count: number, each: (n: number) => Promise<void>) => {
      for (let i = 0; i < count; i += 20) {
        await Promise.all(Array.from({ length: Math.min(20, count - i) }, (_, k) => each(i + k)));
      }
    };
    const firstSymbol = (n: number) => SYMBOLS[n % SYMBOLS.length]!;
    await inParallel(Math.ceil(SOCKETS / SOCKETS_PER_USER), async (n) => {
      const user = await signIn(app);
      people[n] = user;
      const symbols = new Set([firstSymbol(n), SYMBOLS[(n * 7 + 3) % SYMBOLS.length]!]);
      const csvData = `Symbol,Quantity,Buy Price\n${[...symbols].map((s) => `${s},10,100`).join('\n')}\n`;
      const upload = await api.post('/api/holdings/upload-csv', { csvData }, user.token);
      if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${upload.body.error}`);
    });
    for (const user of people) {
      for (let s = 0; s < SOCKETS_PER_USER && tokens.length < SOCKETS; s++)
        tokens.push(signAsServer(user, { exp }));
    }
    // A trailing stop on every user's first holding, armed from the latest quote once it exists.
    const rule = (n: number) =>
      api.post(
        '/api/position-rules',
        { symbol: firstSymbol(n), trigger_type: 'TRAILING_STOP_LOSS', trigger_value: 15 },
        people[n]!.token,
      );
    await inParallel(people.length, async (n) => {
      for (let attempt = 0; (await rule(n)).status !== 201; attempt++) {
        if (attempt > 30) throw new Error(`could not arm a rule for ${firstSymbol(n)}`);
        await sleep(1000);
      }
    });
    console.log(
      `      ${people.length} users, ${tokens.length} sockets, ${app.runtime.engine.stats().rules} rules armed`,
    );

    const batches: number[] = [];
    const offBatch = app.runtime.bus.onBatch((batch) => void batches.push(batch.at));
    clients = fork(fileURLToPath(new URL('./clients.ts', import.meta.url)), {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const replies: FromClients[] = [];
    clients.on('message', (m: FromClients) => replies.push(m));
    const ask = async <K extends FromClients['kind']>(message: ToClients, kind: K) => {
      const before = replies.length;
      clients!.send(message);
      while (!replies.slice(before).some((r) => r.kind === kind)) {
        if (clients!.exitCode !== null) throw new Error('the clients process exited');
        await sleep(50);
      }
      return replies.slice(before).find((r) => r.kind === kind) as Extract<FromClients, { kind: K }>;
    };

    const opened = await ask({ kind: 'start', url: app.url, tokens }, 'connected');
    expect(opened).to.deep.include({ sockets: SOCKETS, failed: 0 });
    const startedAt = Date.now();
    const received = new Map<number, number>();
    const windows: Window[] = [];
    for (let index = 0; index * WINDOW_MS < DURATION_MS; index++) {
      await sleep(Math.max(0, startedAt + (index + 1) * WINDOW_MS - Date.now()));
      const report = await ask({ kind: 'report' }, 'report');
      for (const [at, n] of report.counts) received.set(at, (received.get(at) ?? 0) + n);
      const window: Window = {
        index,
        heapMb: heapAfterGc(),
        latency: report.latency,
        batches: batches.filter(
          (at) => at >= startedAt + index * WINDOW_MS && at < startedAt + (index + 1) * WINDOW_MS,
        ).length,
        connected: report.connected,
      };
      windows.push(window);
      console.log(
        `      window ${index + 1}: heap ${window.heapMb.toFixed(1)} MB, batches ${window.batches}, ` +
          `messages ${report.latency.count}, ` +
          `latency p50 ${report.latency.p50} ms p99 ${report.latency.p99} ms max ${report.latency.max} ms, ` +
          `connected ${report.connected}, disconnects ${report.disconnects}`,
      );
    }
    offBatch();
    await sleep(3000);
    const last = await ask({ kind: 'report' }, 'report');
    for (const [at, n] of last.counts) received.set(at, (received.get(at) ?? 0) + n);
    clients.send({ kind: 'stop' } satisfies ToClients);
    await once(clients, 'exit');
    clients = undefined;

    // Every batch published while the sockets were connected reached every socket.
    const during = batches.filter((at) => at > startedAt);
    const missed = during.filter((at) => (received.get(at) ?? 0) < SOCKETS);
    const gaps = during.slice(1).map((at, i) => at - during[i]!);
    const [warmUp, ...steady] = windows;
    const baseline = steady[0] ?? warmUp!;
    const final = windows.at(-1)!;
    const p99s = steady.map((w) => w.latency.p99);
    console.log(
      `      ${during.length} batches in ${MINUTES} min (longest gap ${Math.max(...gaps)} ms), ` +
        `${missed.length} missed by any socket; heap ${baseline.heapMb.toFixed(1)} → ${final.heapMb.toFixed(1)} MB ` +
        `(${(((final.heapMb - baseline.heapMb) / baseline.heapMb) * 100).toFixed(1)} %); ` +
        `p99 per window ${p99s.join(', ')} ms`,
    );
    expect(missed, 'batches some socket never received').to.deep.equal([]);
    expect(during.length, 'about one batch a second').to.be.at.least(Math.floor((DURATION_MS / 1000) * 0.9));
    expect(
      windows.every((w) => w.connected === SOCKETS),
      'no socket dropped',
    ).to.equal(true);
    expect(final.heapMb, 'heap after GC within 10 % of the first steady window').to.be.at.most(
      baseline.heapMb * 1.1,
    );
    // Steady: the later half's typical p99 has not run away from the earlier half's (a trend, not
    // one busy moment of a shared machine).
    const half = Math.ceil(p99s.length / 2);
    const early = median(p99s.slice(0, half));
    const late = median(p99s.slice(half));
    console.log(`      median p99: first half ${early} ms, second half ${late} ms`);
    expect(late).to.be.at.most(Math.max(3 * early, early + 250));
  });
});
