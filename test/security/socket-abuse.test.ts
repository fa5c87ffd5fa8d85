/**
 * Socket abuse: messages over maxHttpBufferSize (16 KB) close the connection, on WebSocket and
 * on long-polling, as does an oversized handshake; a client sending more than 50 events a
 * second is disconnected, one sending a few is not; well-behaved sockets are untouched. After
 * 200 abusive connections (following 200 to warm up) the server's heap, after a full GC, has
 * grown by less than 1 MB: noise is ±0.3 MB, and keeping each dropped socket would add 1.5 MB.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { io } from 'socket.io-client';
import { bootApp, type TestApp } from '../helpers/app.ts';
import { connected, connectSocket, type TestSocket } from '../helpers/sockets.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const OVERSIZED = 'x'.repeat(32 * 1024);

/** Resolves with the disconnect reason, or 'still connected' after `ms`. */
function disconnectedWithin(socket: TestSocket, ms: number): Promise<string> {
  return new Promise((resolve) => {
    if (socket.disconnected) return resolve('already disconnected');
    const timer = setTimeout(() => resolve('still connected'), ms);
    socket.once('disconnect', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
}

/** Emits through the untyped side: clients of this app are not meant to send anything. */
const send = (socket: TestSocket, event: string, ...args: unknown[]) =>
  (socket as unknown as { emit(event: string, ...a: unknown[]): void }).emit(event, ...args);

describe('security: socket abuse', function () {
  this.timeout(120_000);
  let app: TestApp;
  let user: SignedInUser;
  const openSockets = () => app.runtime.io.of('/').sockets.size;

  before(async () => {
    app = await bootApp({ embeddedStreamer: false });
    user = await signIn(app);
  });
  after(() => app.close());

  const polling = (token: string) =>
    io(app.url, {
      auth: { token },
      transports: ['polling'],
      reconnection: false,
      forceNew: true,
    }) as TestSocket;

  it('closes a connection sending a message over 16 KB, on WebSocket and long-polling; others are untouched', async () => {
    const bystander = connectSocket(app.url, user.token);
    await connected(bystander);
    for (const socket of [connectSocket(app.url, user.token), polling(user.token)]) {
      await connected(socket);
      send(socket, 'rules:changed', OVERSIZED);
      expect(await disconnectedWithin(socket, 10_000)).to.be.oneOf(['transport close', 'transport error']);
      socket.close();
    }
    expect(bystander.connected, 'a well-behaved socket stays').to.equal(true);
    bystander.close();
  });

  it('refuses an oversized handshake', async () => {
    const socket = connectSocket(app.url, `${user.token}.${OVERSIZED}`);
    const outcome = await new Promise<string>((resolve) => {
      const timer = setTimeout(() => resolve('no answer'), 10_000);
      const done = (what: string) => {
        clearTimeout(timer);
        resolve(what);
      };
      socket.once('connect', () => done('connected'));
      socket.once('connect_error', (err) => done(err.message));
      socket.io.once('close', (reason) => done(reason));
    });
    socket.close();
    expect(outcome).to.be.oneOf(['transport close', 'transport error', 'unauthorized']);
  });

  it('disconnects a client sending more than 50 events a second, not one sending a few', async () => {
    const calm = connectSocket(app.url, user.token);
    const flood = connectSocket(app.url, user.token);
    await Promise.all([connected(calm), connected(flood)]);
    for (let i = 0; i < 5; i++) send(calm, 'hello', i);
    for (let i = 0; i < 200; i++) send(flood, 'hello', i);
    expect(await disconnectedWithin(flood, 10_000)).to.equal('io server disconnect');
    expect(await disconnectedWithin(calm, 1500)).to.equal('still connected');
    calm.close();
    flood.close();
  });

  /** One abusive connection: a flood or an oversized message, until the server drops it. */
  async function abuse(i: number): Promise<void> {
    const socket = i % 3 === 2 ? polling(user.token) : connectSocket(app.url, user.token);
    try {
      await connected(socket);
      if (i % 2 === 0) for (let n = 0; n < 80; n++) send(socket, 'spam', n, 'y'.repeat(100));
      else send(socket, 'spam', OVERSIZED);
      await disconnectedWithin(socket, 10_000);
    } finally {
      socket.close();
    }
  }

  async function settledHeap(): Promise<number> {
    const deadline = Date.now() + 20_000;
    while ((openSockets() > 0 || app.runtime.io.engine.clientsCount > 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    return process.memoryUsage().heapUsed;
  }

  it('keeps the server heap steady across 200 abusive connections', async () => {
    const run = async (count: number) => {
      for (let start = 0; start < count; start += 20) {
        await Promise.all(Array.from({ length: Math.min(20, count - start) }, (_, k) => abuse(start + k)));
      }
    };
    await run(200); // warm-up: code paths, pools, caches and type feedback
    const before = await settledHeap();
    await run(200);
    const after = await settledHeap();
    const grownMb = (after - before) / 1024 / 1024;
    console.log(
      `      heap after GC: ${(before / 1048576).toFixed(1)} MB → ${(after / 1048576).toFixed(1)} MB`,
    );
    expect(openSockets(), 'every abusive socket was dropped').to.equal(0);
    // 5 KB a connection, several times the noise; a socket kept after its disconnect costs ~7.5 KB.
    expect(grownMb).to.be.below(1);
  });
});
