/**
 * Lets each connection's HTTP requests go once its WebSocket is open. engine.io would keep the
 * WebSocket upgrade request (headers, stream state: about 2 KB a socket) for the socket's life
 * through two listeners it has no further use for: the WebSocket's `onUpgradeError` (engine.io
 * removes it itself only when upgrading from long-polling) and the upgrade response's `close`
 * relay on the TCP socket (for engine.io middlewares such as pino-http; the server has none
 * that listen). The first request of each connection is also dropped.
 *
 * These are engine.io internals: test/server/realtime/upgrade-request.test.ts fails if an
 * engine.io update makes an open socket keep its upgrade request again.
 */
import type { EventEmitter } from 'node:events';

/** The parts of an engine.io socket (`io.engine`'s `connection` event) this touches. */
export interface EngineConnection extends EventEmitter {
  request: unknown;
  transport: EngineTransport;
}

interface EngineTransport {
  name: string;
  /** The `ws` WebSocket, on the websocket transport. */
  socket?: EventEmitter & { _socket?: EventEmitter | null };
}

type Listener = (...args: unknown[]) => void;

/** engine.io's upgrade response relays the TCP socket's close as `() => this.emit("close")`. */
const isCloseRelay = (fn: Listener) => fn.name === '' && /\.emit\(\s*["']close["']\s*\)/.test(String(fn));

function releaseWebSocketUpgrade(transport: EngineTransport): void {
  const ws = transport.name === 'websocket' ? transport.socket : undefined;
  if (!ws) return;
  for (const listener of ws.listeners('error') as Listener[])
    if (listener.name === 'onUpgradeError') ws.removeListener('error', listener);
  const tcp = ws._socket;
  if (!tcp) return;
  for (const raw of tcp.rawListeners('close') as Array<Listener & { listener?: Listener }>)
    if (isCloseRelay(raw.listener ?? raw)) tcp.removeListener('close', raw);
}

/** Call on `io.engine`'s `connection`: now for a WebSocket-first connection, else at its upgrade. */
export function releaseUpgradeRequests(connection: EngineConnection): void {
  connection.request = null;
  // Only a long-polling connection gets a listener: a WebSocket-first one holds none for this.
  if (connection.transport.name === 'websocket') releaseWebSocketUpgrade(connection.transport);
  else connection.once('upgrade', releaseWebSocketUpgrade);
}
