import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { parseConfig } from '@app/config';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { startServerRuntime } from '../../../server/src/runtime.ts';
import { TEST_JWT_SECRET } from '../../helpers/app.ts';
import { testServices } from '../../helpers/root-hooks.ts';
import { signIn } from '../../helpers/users.ts';

describe('http: shutdown', () => {
  it('closes the database only after the requests still running have finished', async () => {
    const logged: Array<{ level: number; msg: string }> = [];
    const sink = new Writable({
      write(line: Buffer, _encoding, done) {
        logged.push(JSON.parse(line.toString()) as { level: number; msg: string });
        done();
      },
    });
    const config = parseConfig({
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'warn',
      JWT_SECRET: TEST_JWT_SECRET,
      DATABASE_URL: testServices().databaseUrl,
    });
    const runtime = await startServerRuntime(config, { log: pino({ level: 'warn' }, sink) });
    const app = { url: runtime.url, runtime, close: () => runtime.close() };
    const user = await signIn(app);

    // Hold the users table so that the request stops at its first query (the session check).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const lock = runtime.deps.db.transaction(async (tx) => {
      await tx.execute(sql`lock table users in access exclusive mode`);
      locked();
      await held;
    });
    await lockTaken;
    const arrived = new Promise<void>((resolve) => runtime.http.once('request', () => resolve()));
    const req = httpRequest(`${runtime.url}/api/holdings`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    req.on('error', () => undefined);
    req.end();
    await arrived;
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The client goes away (as a load generator does at its end); its request is still running.
    req.destroy();
    let closed = false;
    const closing = runtime.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(closed, 'close waits for the running request').to.equal(false);
    release();
    await lock;
    await closing;
    expect(logged.filter((l) => l.level >= 50).map((l) => l.msg)).to.deep.equal([]);
  });
});
