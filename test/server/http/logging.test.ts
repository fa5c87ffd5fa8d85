import http from 'node:http';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';
import { signIn } from '../../helpers/users.ts';
import { sleep, waitFor } from '../../helpers/wait.ts';

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  err?: { message: string };
}

/** A sink keeping each line the app logs, parsed. */
function logSink(logged: LogLine[]): Writable {
  return new Writable({
    write(line: Buffer, _encoding, done) {
      logged.push(JSON.parse(line.toString()) as LogLine);
      done();
    },
  });
}

describe('http: structured request log and the generic 500', () => {
  const logged: LogLine[] = [];
  let app: TestApp;
  before(async () => {
    const sink = logSink(logged);
    // A database of its own: one test takes a table away.
    app = await bootApp({ env: { DATABASE_URL: undefined }, log: pino({ level: 'info' }, sink) });
  });
  after(() => app.close());

  const linesOf = (reqId: string) => logged.filter((l) => l.reqId === reqId);

  it('logs one line per API request: reqId, method, path, status and duration', async () => {
    const reqId = `log-test-${Date.now()}`;
    const res = await request(app.url, 'GET', '/api/health', undefined, {
      headers: { 'x-request-id': reqId },
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-request-id')).to.equal(reqId);
    const lines = linesOf(reqId);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.deep.include({
      level: 30,
      msg: 'request',
      method: 'GET',
      path: '/api/health',
      status: 200,
    });
    expect(lines[0]!.ms).to.be.a('number').and.at.least(0);

    const missing = await request(app.url, 'POST', '/api/nowhere', {});
    const generated = missing.headers.get('x-request-id')!;
    expect(generated).to.match(/^[0-9a-f-]{36}$/);
    expect(linesOf(generated)).to.have.length(1);
    expect(linesOf(generated)[0]).to.deep.include({ method: 'POST', path: '/api/nowhere', status: 404 });
  });

  it('answers an unexpected failure with a generic 500 and logs it once', async () => {
    const user = await signIn(app);
    const { db } = app.runtime.deps;
    // An unexpected fault with the database still reachable: a table the route reads is gone.
    await db.execute(sql`alter table broker_accounts rename to broker_accounts_away`);
    const reqId = `fault-test-${Date.now()}`;
    let res;
    try {
      res = await request(app.url, 'GET', '/api/brokers', undefined, {
        token: user.token,
        headers: { 'x-request-id': reqId },
      });
    } finally {
      await db.execute(sql`alter table broker_accounts_away rename to broker_accounts`);
    }
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({ success: false, error: 'Something went wrong. Please try again.' });
    const errors = linesOf(reqId).filter((l) => l.level >= 50);
    expect(errors).to.have.length(1);
    expect(errors[0]!.err?.message).to.match(/broker_accounts/);
    expect(linesOf(reqId).filter((l) => l.msg === 'request')).to.have.length(1);
    expect(linesOf(reqId).find((l) => l.msg === 'request')).to.deep.include({ status: 500 });
    // The route works again once the table is back.
    expect((await request(app.url, 'GET', '/api/brokers', undefined, { token: user.token })).status).to.equal(
      200,
    );
  });
});

describe('http: a client that aborts mid-request', () => {
  const logged: LogLine[] = [];
  let app: TestApp;
  before(async () => {
    app = await bootApp({ log: pino({ level: 'debug' }, logSink(logged)) });
  });
  after(() => app.close());

  /** Starts a POST announcing 1,000 bytes (within every route's limit), sends 200 and hangs up. */
  async function abortMidBody(path: string, reqId: string, token?: string): Promise<void> {
    const req = http.request(new URL(path, app.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': '1000',
        'x-request-id': reqId,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    req.on('error', () => undefined);
    req.write(`{"pad":"${'x'.repeat(192)}`);
    // Long enough for the server to have the request in hand; then the client goes away.
    await sleep(100);
    req.destroy();
  }

  it('is logged once per request, at debug level, without a stack or an error line', async () => {
    const user = await signIn(app);
    const routes = ['/api/auth/logout', '/api/events', '/api/holdings/manual', '/api/position-rules'];
    const reqIds: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const path of routes) {
        const reqId = `aborted-${round}-${path.replaceAll('/', '-')}`;
        reqIds.push(reqId);
        await abortMidBody(path, reqId, path.startsWith('/api/auth') ? undefined : user.token);
      }
    }
    await waitFor('a line for every aborted request', () =>
      reqIds.every((id) => logged.some((line) => line.reqId === id)),
    );
    for (const reqId of reqIds) {
      const lines = logged.filter((line) => line.reqId === reqId);
      expect(lines, reqId).to.have.length(1);
      expect(lines[0], reqId).to.deep.include({ level: 20, msg: 'request aborted by the client' });
      expect(lines[0]!.err, reqId).to.equal(undefined);
    }
    // Nothing about them at warn or above, with a request id or without.
    expect(logged.filter((line) => line.level >= 40)).to.deep.equal([]);
  });
});
