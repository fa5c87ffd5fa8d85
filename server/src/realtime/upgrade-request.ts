/**
 * Lets each connection's HTTP requests go once its socket is open (about 1.7 KB a socket).
 *
 * engine.io answers a WebSocket upgrade with a `WebSocketResponse` (a stand-in for
 * `http.ServerResponse`, handed to engine middlewares) whose `req` is the upgrade request, and
 * keeps that response for the socket's life: it relays the TCP socket's `close` to it. The
 * engine socket's `request` is the connection's first request. Both are let go through public
 * API only: an engine middleware (`io.engine.use`) sees each upgrade's response, and once the
 * socket is open (the engine's `connection`, or the socket's `upgrade` after long-polling) the
 * response's `req` and the socket's `request` are cleared. Nothing reads them later: the
 * handshake copied what Socket.IO keeps (`socket.handshake`), and this server reads no
 * `socket.request`.
 *
 * test/server/realtime/upgrade-request.test.ts fails if an engine.io update keeps an open
 * socket's requests alive another way.
 */
import type { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';

/** The part of engine.io's upgrade response this touches (`http.ServerResponse#req`). */
interface UpgradeResponse {
  req: IncomingMessage | null;
}

/** An engine.io socket (the engine's `connection` event). */
export interface EngineConnection extends EventEmitter {
  id: string;
  request: IncomingMessage | null;
  transport: { name: string };
}

type EngineMiddleware = (req: IncomingMessage, res: UpgradeResponse, next: (err?: Error) => void) => void;

/** The parts of `io.engine` this uses: its middlewares and its `connection` event. */
export interface EngineServer extends EventEmitter {
  use(middleware: EngineMiddleware): void;
}

/** The engine socket id an upgrade of a long-polling connection names (`?sid=`), if any. */
function upgradedSid(req: IncomingMessage): string | null {
  return new URL(req.url ?? '/', 'http://localhost').searchParams.get('sid');
}

/** Installs the release on an engine (`io.engine`); call once, before it takes connections. */
export function releaseUpgradeRequests(engine: EngineServer): void {
  // A WebSocket-first connection's upgrade, until its handshake opens a socket (or fails: weak).
  const handshakes = new WeakMap<IncomingMessage, UpgradeResponse>();
  // Each open long-polling connection, with its latest upgrade until that completes. Only the
  // ids of open connections are kept: an upgrade naming any other id adds nothing.
  const upgrades = new Map<string, UpgradeResponse | null>();

  // Shared listeners (`this` is the engine socket): an open socket holds no closure of its own.
  function onUpgrade(this: EngineConnection): void {
    const res = upgrades.get(this.id);
    upgrades.delete(this.id);
    if (res) res.req = null;
  }
  function onClose(this: EngineConnection): void {
    upgrades.delete(this.id);
  }

  engine.use((req, res, next) => {
    if (req.headers.upgrade) {
      const sid = upgradedSid(req);
      if (!sid) handshakes.set(req, res);
      else if (upgrades.has(sid)) upgrades.set(sid, res);
    }
    next();
  });

  engine.on('connection', (connection: EngineConnection) => {
    const res = connection.request && handshakes.get(connection.request);
    if (res) res.req = null;
    connection.request = null;
    if (connection.transport.name !== 'websocket') {
      upgrades.set(connection.id, null);
      connection.once('upgrade', onUpgrade);
      connection.once('close', onClose);
    }
  });
}
