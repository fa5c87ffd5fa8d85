/**
 * Connections one client opens and never finishes are bounded: a request whose body or headers
 * trickle in is answered 408 and closed at its deadline; past the connection ceiling new
 * connections are closed as they arrive while the ones already open (a signed-in user's) are
 * still served, and service comes back by itself once the flood's requests time out; a
 * Socket.IO connection that never signs in is closed. Short deadlines configured here; the
 * client gives up after 3 s, which the old defaults (300 s, 45 s) would not have met.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import { WebSocket } from 'ws';
import { bootApp, type TestApp } from '../helpers/app.ts';
import { request } from '../helpers/http.ts';
import { connected, connectSocket } from '../helpers/sockets.ts';
import { signIn } from '../helpers/users.ts';
import { sleep, waitFor } from '../helpers/wait.ts';

/** The client gives up after this. */
const CLIENT_BOUND_MS = 3000;

/** A raw TCP connection to the app, with everything it has received. */
interface RawConnection {
  socket: Socket;
  received(): string;
  /** Resolves once the server has closed it. */
  closed: Promise<void>;
}

async function openRaw(url: string): Promise<RawConnection> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => text, closed };
}

/** 'closed' once the server closes `conn`, else 'still open' after CLIENT_BOUND_MS. */
const closedWithinBound = (conn: RawConnection) =>
  Promise.race([conn.closed.then(() => 'closed'), sleep(CLIENT_BOUND_MS).then(() => 'still open')]);

/** Writes `chunk` every `everyMs` until the connection closes. */
function trickle(conn: RawConnection, chunk: string, everyMs = 100): void {
  const timer = setInterval(() => {
    if (conn.socket.destroyed) return clearInterval(timer);
    conn.socket.write(chunk);
  }, everyMs);
  void conn.closed.then(() => clearInterval(timer));
}

/** A sign-in whose body is announced as 1,000 bytes and sent a byte at a time. */
function slowBodyHead(address: string, extra = ''): string {
  return (
    'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
    `Content-Length: 1000\r\nX-Forwarded-For: ${address}\r\n${extra}\r\n`
  );
}

describe('security: a request that trickles in is cut off at its deadline', function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => {
    app = await bootApp({ env: { HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_HEADERS_TIMEOUT_MS: '1000' } });
  });
  after(() => app?.close());

  it('answers 408 and closes a request whose body trickles in; other requests are served meanwhile', async () => {
    const slow = await openRaw(app.url);
    slow.socket.write(slowBodyHead(randomUUID()) + '{');
    trickle(slow, ' ');
    expect((await request(app.url, 'GET', '/api/health')).status).to.equal(200);
    expect(await closedWithinBound(slow), 'the slow body').to.equal('closed');
    expect(slow.received()).to.match(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes a request whose headers trickle in', async () => {
    const slow = await openRaw(app.url);
    slow.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
    let n = 0;
    const timer = setInterval(() => !slow.socket.destroyed && slow.socket.write(`X-Slow-${n++}: 1\r\n`), 100);
    try {
      expect(await closedWithinBound(slow), 'the slow headers').to.equal('closed');
    } finally {
      clearInterval(timer);
    }
    expect(slow.received()).to.match(/^HTTP\/1\.1 408 /);
  });
});

describe('security: connections past the ceiling', function () {
  this.timeout(60_000);
  const MAX = 20;
  let app: TestApp;
  const flood: RawConnection[] = [];
  before(async () => {
    app = await bootApp({
      env: {
        HTTP_MAX_CONNECTIONS: String(MAX),
        HTTP_REQUEST_TIMEOUT_MS: '4000',
        HTTP_HEADERS_TIMEOUT_MS: '4000',
      },
    });
  });
  after(async () => {
    for (const conn of flood) conn.socket.destroy();
    await app?.close();
  });

  /** A slow sign-in that the server has taken (it answered 100 Continue), or null if it closed it. */
  async function slowRequest(address: string): Promise<RawConnection | null> {
    const conn = await openRaw(app.url);
    conn.socket.write(slowBodyHead(address, 'Expect: 100-continue\r\n'));
    const taken = await Promise.race([
      waitFor('100 Continue', () => conn.received().startsWith('HTTP/1.1 100'), CLIENT_BOUND_MS, 10),
      conn.closed.then(() => false),
    ]);
    if (!taken) return null;
    conn.socket.write('{');
    trickle(conn, ' ', 200);
    return conn;
  }

  it('closes new connections past the ceiling, serves the ones open, and recovers once the flood times out', async () => {
    // The user's own connection, kept open (keep-alive), as a browser tab keeps one.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { port } = new URL(app.url);
    const userCall = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method,
            path,
            agent,
            headers: payload ? { ...headers, 'content-type': 'application/json' } : headers,
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, body: text }));
          },
        );
        req.setTimeout(CLIENT_BOUND_MS, () => req.destroy(new Error(`${path}: no answer`)));
        req.on('error', reject);
        req.end(payload);
      });
    try {
      const signedIn = await userCall(
        'POST',
        '/api/auth/login',
        {},
        { email: `${randomUUID()}@example.com`, name: 'U' },
      );
      expect(signedIn.status).to.equal(200);
      const auth = {
        authorization: `Bearer ${(JSON.parse(signedIn.body) as { data: { token: string } }).data.token}`,
      };
      expect((await userCall('GET', '/api/holdings', auth)).status).to.equal(200);

      const address = randomUUID();
      let refused = false;
      while (flood.length < 2 * MAX) {
        const conn = await slowRequest(address);
        if (!conn) {
          refused = true;
          break;
        }
        flood.push(conn);
      }
      expect(refused, `a connection past ${MAX} closed at once`).to.equal(true);
      expect(flood.length, 'slow requests taken beside the user').to.equal(MAX - 1);
      const visitor = await openRaw(app.url);
      visitor.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(await closedWithinBound(visitor), 'a new visitor').to.equal('closed');
      expect(visitor.received()).to.equal('');

      // The user's connection is served, and the server still reaches its database.
      expect((await userCall('GET', '/api/holdings', auth)).status).to.equal(200);

      await Promise.all(flood.map((conn) => conn.closed));
      for (const conn of flood) expect(conn.received()).to.match(/408 Request Timeout/);
      const back = await waitFor('a new visitor to be served', async () => {
        const res = await request(app.url, 'GET', '/api/health', undefined, {
          timeoutMs: CLIENT_BOUND_MS,
        }).catch(() => undefined);
        return res?.status === 200 ? res : undefined;
      });
      expect(back.body.data).to.include({ status: 'ok' });
    } finally {
      agent.destroy();
    }
  });
});

describe('security: Socket.IO connections that never sign in', function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => {
    app = await bootApp({ env: { SOCKET_HANDSHAKE_TIMEOUT_MS: '1000' } });
  });
  after(() => app?.close());

  /** A WebSocket at the engine level: what a client sends, the frames it receives, its close. */
  async function rawSocket() {
    const ws = new WebSocket(`${app.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
    const frames: string[] = [];
    ws.on('message', (data) => frames.push(String(data)));
    ws.on('error', () => undefined);
    const closed = new Promise<string>((resolve) => ws.once('close', () => resolve('closed')));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    await waitFor('the engine open packet', () => frames[0]?.startsWith('0{'));
    const closedWithin = () => Promise.race([closed, sleep(CLIENT_BOUND_MS).then(() => 'still open')]);
    return { ws, frames, closedWithin };
  }

  it('closes a connection that never sends its handshake, and one whose handshake was refused', async () => {
    const user = await signIn(app);
    const signedIn = connectSocket(app.url, user.token);
    await connected(signedIn);

    const silent = await rawSocket();
    const refused = await rawSocket();
    refused.ws.send('40{"token":"not-a-token"}');
    await waitFor('the refusal', () => refused.frames.some((f) => f.startsWith('44')));

    expect(await silent.closedWithin(), 'the silent connection').to.equal('closed');
    expect(await refused.closedWithin(), 'the refused connection').to.equal('closed');
    expect(signedIn.connected, 'a signed-in socket stays').to.equal(true);
    signedIn.close();
  });

  it('forgets a long-polling session that never sends its handshake', async () => {
    const polling = `${app.url}/socket.io/?EIO=4&transport=polling`;
    const open = await (await fetch(polling, { signal: AbortSignal.timeout(CLIENT_BOUND_MS) })).text();
    const { sid } = JSON.parse(open.slice(1)) as { sid: string };
    const poll = await fetch(`${polling}&sid=${sid}`, {
      signal: AbortSignal.timeout(CLIENT_BOUND_MS),
    });
    // The waiting poll is answered with the close packet when the session is dropped.
    expect(await poll.text()).to.equal('1');
    const after = await fetch(`${polling}&sid=${sid}`, {
      signal: AbortSignal.timeout(CLIENT_BOUND_MS),
    });
    expect(after.status).to.equal(400);
  });
});
