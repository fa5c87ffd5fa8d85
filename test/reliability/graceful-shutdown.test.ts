/**
 * SIGTERM to a server process (what `docker compose stop` and a rolling deploy send): it stops
 * accepting connections, finishes the request in flight (a large upload still arriving) and the
 * alert email being sent, disconnects its sockets so their clients reconnect elsewhere, and
 * exits 0.
 */
import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { STARTER_INSTRUMENTS } from '@app/common/instruments/starter';
import { createRedisBus } from '@app/streamer';
import { expect } from 'chai';
import { pino } from 'pino';
import type { RedisServer } from '../helpers/services.ts';
import { connected, connectSocket } from '../helpers/sockets.ts';
import { tickBatch } from '../server/rules/support.ts';
import {
  armStops,
  type ClusterServices,
  executionsOf,
  printTailsOnFailure,
  seedQuotes,
  type ServerProcess,
  signInAt,
  sleep,
  startClusterServices,
  startServerProcess,
  tail,
  type TestDatabase,
  waitFor,
} from './support/cluster.ts';
import type { MailProvider } from './support/mail-provider.ts';

/** A broker file of every NIFTY 100 stock, sent in two halves around the SIGTERM. */
function largeUpload(): Buffer {
  const symbols = [...new Set(STARTER_INSTRUMENTS.filter((i) => i.exchange === 'NSE').map((i) => i.symbol))];
  const rows = symbols.slice(0, 100).map((s, i) => `${s},${i + 1},${100 + i}.50`);
  return Buffer.from(
    JSON.stringify({
      csvData: `Symbol,Quantity,Buy Price\n${rows.join('\n')}\n`,
      account: { new_name: 'Large upload' },
    }),
  );
}

describe('reliability: graceful shutdown on SIGTERM (server process)', function () {
  this.timeout(90_000);
  let db: TestDatabase;
  let redis: RedisServer;
  let mail: MailProvider;
  let cluster: ClusterServices | undefined;
  let server: ServerProcess;

  before(async () => {
    cluster = await startClusterServices({ name: 'pg-shutdown-' });
    ({ db, redis, mail } = cluster);
    server = await startServerProcess(cluster.env);
  });
  printTailsOnFailure(() => ({ servers: [server] }));
  after(async () => {
    await server?.proc.stop('SIGKILL');
    await cluster?.stop();
  });

  it('finishes the upload and the email in flight, disconnects sockets, refuses new connections, exits 0', async () => {
    await seedQuotes(db, { RELIANCE: 1000 });
    const user = await signInAt(server.url);
    await armStops(server.url, user, ['RELIANCE']);
    const socket = connectSocket(server.url, user.token);
    await connected(socket);
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    // An alert whose email the provider takes 2 s to accept.
    mail.script({ status: 202, delayMs: 2000 });
    const bus = createRedisBus(redis.url, pino({ level: 'silent' }));
    await bus.publishBatch(tickBatch({ RELIANCE: 900 }));
    await bus.close();
    await waitFor('the email to be in flight', () => (mail.attempts.length === 1 ? true : undefined));

    // A large upload: headers and half the body now, the rest after the SIGTERM.
    const body = largeUpload();
    const upload = httpRequest(`${server.url}/api/holdings/upload-csv`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': String(body.length),
        authorization: `Bearer ${user.token}`,
      },
    });
    const answered = once(upload, 'response');
    upload.write(body.subarray(0, body.length / 2));
    const [conn] = (await once(upload, 'socket')) as [import('node:net').Socket];
    if (conn.connecting) await once(conn, 'connect');
    await sleep(300);

    const exited = once(server.proc.child, 'exit') as Promise<[number | null, string | null]>;
    server.proc.child.kill('SIGTERM');
    // Either way the client reconnects (the app's live store renews its session on the first).
    expect(await disconnected, 'the server closes its sockets').to.be.oneOf([
      'io server disconnect',
      'transport close',
    ]);
    await waitFor('new connections to be refused', () =>
      fetch(`${server.url}/api/health`).then(
        () => undefined,
        () => true,
      ),
    );
    expect(server.proc.child.exitCode, 'still finishing its work').to.equal(null);

    upload.end(body.subarray(body.length / 2));
    const [res] = (await answered) as [import('node:http').IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    const reply = JSON.parse(Buffer.concat(chunks).toString()) as {
      success: boolean;
      data?: { stored: boolean };
    };
    expect(res.statusCode, JSON.stringify(reply)).to.equal(201);
    expect(reply.data?.stored).to.equal(true);

    const [code, signal] = await exited;
    expect({ code, signal }, tail(server.proc)).to.deep.equal({ code: 0, signal: null });
    expect(mail.accepted(), 'the email in flight was accepted').to.have.length(1);
    const [execution] = await executionsOf(db, [user.id]);
    expect(execution?.status).to.equal('SUCCESS');
    const [{ n }] = (await db.query<{ n: number }>(
      `select count(*)::int as n from holdings h join broker_accounts a on a.id = h.broker_account_id
       where h.user_id = $1 and a.broker_name = 'Large upload'`,
      [user.id],
    )) as [{ n: number }];
    expect(n, 'the upload committed').to.equal(100);
    socket.close();
  });
});
