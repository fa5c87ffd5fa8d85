/**
 * PostgreSQL unreachable: the API answers 503 with a clear error, a socket handshake is
 * refused with a reason to retry (not as a sign-out), nothing crashes, and service resumes by
 * itself. Needs a PostgreSQL server (the run's, or the local one).
 */
import { SOCKET_ERRORS } from '@app/common/realtime/events';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { bootApp, type TestApp } from '../helpers/app.ts';
import { apiClient } from '../helpers/http.ts';
import { testServices } from '../helpers/root-hooks.ts';
import { createFreshDatabase } from '../helpers/services.ts';
import { connectSocket, handshakeOutcome } from '../helpers/sockets.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { signIn } from '../helpers/users.ts';

const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

describe('reliability: PostgreSQL becomes unreachable', function () {
  this.timeout(60_000);
  let app: TestApp;
  let proxy: TcpProxy;
  let drop: (() => Promise<void>) | undefined;
  const logged: Array<{ level: number; msg: string }> = [];

  before(async () => {
    let url = testServices().databaseUrl;
    if (!url) {
      const fresh = await createFreshDatabase(LOCAL_POSTGRES).catch((err: Error) => {
        throw new Error(
          `this test needs a PostgreSQL server (DATABASE_URL or ${LOCAL_POSTGRES}): ${err.message}`,
        );
      });
      url = fresh.url;
      drop = fresh.drop;
    }
    const target = new URL(url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    target.host = `127.0.0.1:${proxy.port}`;
    const sink = new Writable({
      write(line: Buffer, _encoding, done) {
        logged.push(JSON.parse(line.toString()) as { level: number; msg: string });
        done();
      },
    });
    app = await bootApp({ env: { DATABASE_URL: target.toString() }, log: pino({ level: 'warn' }, sink) });
  });
  after(async () => {
    await app?.close();
    await proxy?.close();
    await drop?.();
  });

  it('answers 503 while it is down and serves again once it is back', async () => {
    const api = apiClient(app.url);
    const user = await signIn(app);
    expect((await api.get('/api/holdings', user.token)).status).to.equal(200);

    await proxy.cut();
    // Not /api/holdings: each instance answers it from a cache for a few seconds.
    const down = await api.get('/api/brokers', user.token);
    expect(down.status).to.equal(503);
    expect(down.body.error).to.match(/temporarily unavailable/);
    expect(down.headers.get('retry-after')).to.be.a('string');
    expect((await api.get('/api/test-db')).status).to.equal(503);
    expect((await api.get('/api/ready')).status).to.equal(503);
    expect((await api.get('/api/health')).status, 'the process itself is still up').to.equal(200);

    await proxy.restore();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await api.get('/api/holdings', user.token)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).to.equal(200);
  });

  it('refuses a socket handshake it cannot check with a reason to retry, not as unauthorized', async () => {
    const user = await signIn(app);
    const handshake = () => handshakeOutcome(connectSocket(app.url, user.token));
    await proxy.cut();
    const handshakeWarnings = () =>
      logged.filter((l) => l.msg.startsWith('socket handshakes cannot check')).length;
    try {
      const before = handshakeWarnings();
      expect(await handshake()).to.equal(SOCKET_ERRORS.unavailable);
      expect(await handshake(), 'the tab retrying').to.equal(SOCKET_ERRORS.unavailable);
      expect(handshakeWarnings() - before, 'logged once for the outage, not per handshake').to.equal(1);
    } finally {
      await proxy.restore();
    }
    let outcome = '';
    for (let i = 0; i < 50 && outcome !== 'connected'; i++) {
      outcome = await handshake();
      if (outcome !== 'connected') await new Promise((r) => setTimeout(r, 200));
    }
    expect(outcome).to.equal('connected');
  });
});
