/**
 * An open socket keeps none of its connection's HTTP requests (server/src/realtime/upgrade-request.ts):
 * after a garbage collection, every request that opened it (the WebSocket upgrade, or the
 * long-polling requests and the upgrade after them) is gone, and the socket still works.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { io } from 'socket.io-client';
import { bootApp, type TestApp } from '../../helpers/app.ts';
import { collectQuotes, connected, connectSocket, type TestSocket } from '../../helpers/sockets.ts';
import { signIn } from '../../helpers/users.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Each request Socket.IO answered, held weakly. */
function watchRequests(app: TestApp): Array<WeakRef<object>> {
  const requests: Array<WeakRef<object>> = [];
  app.runtime.io.engine.on('headers', (_headers: unknown, req: object) => requests.push(new WeakRef(req)));
  return requests;
}

/** How many of `requests` are still reachable after a few collections. */
async function stillHeld(requests: Array<WeakRef<object>>): Promise<number> {
  for (let round = 0; round < 5; round++) {
    // A WeakRef's target stays alive until the current job ends.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  await new Promise((resolve) => setImmediate(resolve));
  return requests.filter((r) => r.deref() !== undefined).length;
}

describe('realtime: an open socket keeps none of its HTTP requests', () => {
  let app: TestApp;
  let socket: TestSocket | undefined;
  beforeEach(async () => {
    app = await bootApp({ env: { QUOTE_INTERVAL_MS: '200' } });
  });
  afterEach(async () => {
    socket?.close();
    await app.close();
  });

  async function holdingUser() {
    const user = await signIn(app);
    const res = await fetch(`${app.url}/api/holdings/manual`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ symbol: 'RELIANCE', exchange: 'NSE', quantity: 1, average_price: 1000 }),
    });
    expect(res.status).to.equal(201);
    return user;
  }

  it('a WebSocket-first connection: the upgrade request is let go, quotes still arrive', async () => {
    const user = await holdingUser();
    const requests = watchRequests(app);
    socket = connectSocket(app.url, user.token);
    await connected(socket);
    expect(requests, 'the upgrade request').to.have.length(1);
    expect(await stillHeld(requests)).to.equal(0);
    const quotes = await collectQuotes(socket, (all) => all.length >= 1);
    expect(quotes[0]!.quotes.map((q) => q.symbol)).to.deep.equal(['RELIANCE']);
  });

  it('long-polling upgraded to WebSocket: every request is let go, quotes still arrive', async () => {
    const user = await holdingUser();
    const requests = watchRequests(app);
    socket = io(app.url, {
      auth: { token: user.token },
      transports: ['polling', 'websocket'],
      reconnection: false,
      forceNew: true,
    });
    await connected(socket);
    const engine = socket.io.engine;
    if (engine.transport.name !== 'websocket')
      await new Promise<void>((resolve) => engine.once('upgrade', () => resolve()));
    expect(requests.length, 'polling requests and the upgrade').to.be.at.least(2);
    await collectQuotes(socket, (all) => all.length >= 1);
    expect(await stillHeld(requests)).to.equal(0);
    expect(socket.io.engine.transport.name).to.equal('websocket');
  });

  it('the server still sees the socket close after letting its requests go', async () => {
    const user = await holdingUser();
    socket = connectSocket(app.url, user.token);
    await connected(socket);
    expect(app.runtime.io.engine.clientsCount).to.equal(1);
    socket.close();
    const deadline = Date.now() + 5000;
    while (app.runtime.io.engine.clientsCount > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(app.runtime.io.engine.clientsCount).to.equal(0);
  });
});
