/**
 * The baselines: what the same job costs with nothing of ours in the way. A bare `ws` server
 * fed by a Redis subscriber sends each connection the same per-user payload as the quote
 * fan-out; a bare Koa route answers with a constant. And a reference: a bare Socket.IO server
 * (default options, no sign-in, no rooms) doing what the bare `ws` one does, to show what the
 * Socket.IO interface the client and server share (docs/live-prices.md) costs by itself.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { instrumentKey, MARKET_KEYS, type TickBatch } from '@app/common/market/tick-batch';
import type { LiveQuote, QuotesMessage } from '@app/common/realtime/events';
import Router from '@koa/router';
import { Redis } from 'ioredis';
import Koa from 'koa';
import { Server as SocketIoServer, type Socket as SocketIoSocket } from 'socket.io';
import { WebSocketServer, type WebSocket } from 'ws';
import { heldKeys } from './market.ts';

export interface BareWsSpec {
  redisUrl: string;
  symbols: string[];
  perUser: number;
}

export interface BareServer {
  url: string;
  /** Open connections. */
  clients(): number;
  close(): Promise<void>;
}

/** Calls `send` with each batch published on the ticks channel; returns the unsubscribe. */
async function onTickBatch(redisUrl: string, send: (batch: TickBatch) => void): Promise<() => void> {
  const subscriber = new Redis(redisUrl);
  subscriber.on('message', (_channel: string, message: string) => send(JSON.parse(message) as TickBatch));
  await subscriber.subscribe(MARKET_KEYS.ticksChannel);
  return () => subscriber.disconnect();
}

/** Each connection's message: the batch's quotes of its user's instruments (none: undefined). */
function perUserMessages<C>(batch: TickBatch, keysOf: Map<C, string[]>): Map<C, QuotesMessage> {
  const byKey = new Map<string, LiveQuote>();
  for (const q of batch.quotes) {
    const { symbol, exchange, ltp, prevClose, change, changePercent, asOf, delayMinutes } = q;
    byKey.set(instrumentKey(exchange, symbol), {
      symbol,
      exchange,
      ltp,
      prevClose,
      change,
      changePercent,
      asOf,
      delayMinutes,
    });
  }
  const messages = new Map<C, QuotesMessage>();
  for (const [connection, keys] of keysOf) {
    const quotes: LiveQuote[] = [];
    for (const key of keys) {
      const quote = byKey.get(key);
      if (quote) quotes.push(quote);
    }
    if (quotes.length) messages.set(connection, { at: batch.at, quotes });
  }
  return messages;
}

/** Connections say who they are with `?user=<ordinal>`; there is no authentication. */
export async function startBareWs(spec: BareWsSpec): Promise<BareServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await once(wss, 'listening');
  const keysOf = new Map<WebSocket, string[]>();
  wss.on('connection', (ws, req) => {
    const user = Number(new URL(req.url ?? '/', 'http://bench').searchParams.get('user'));
    keysOf.set(ws, heldKeys(spec.symbols, user, spec.perUser));
    ws.once('close', () => keysOf.delete(ws));
  });
  const unsubscribe = await onTickBatch(spec.redisUrl, (batch) => {
    for (const [ws, message] of perUserMessages(batch, keysOf)) ws.send(JSON.stringify(message));
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clients: () => wss.clients.size,
    async close() {
      unsubscribe();
      for (const ws of wss.clients) ws.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}

/** Sockets say who they are with `auth: {user: <ordinal>}`; there is no authentication. */
export async function startBareSocketIo(spec: BareWsSpec): Promise<BareServer> {
  const http = createServer();
  const io = new SocketIoServer(http);
  const keysOf = new Map<SocketIoSocket, string[]>();
  io.on('connection', (socket) => {
    keysOf.set(socket, heldKeys(spec.symbols, Number(socket.handshake.auth.user), spec.perUser));
    socket.once('disconnect', () => keysOf.delete(socket));
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const unsubscribe = await onTickBatch(spec.redisUrl, (batch) => {
    for (const [socket, message] of perUserMessages(batch, keysOf)) socket.emit('quotes', message);
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clients: () => io.engine.clientsCount,
    async close() {
      unsubscribe();
      io.disconnectSockets(true);
      await new Promise((resolve) => io.close(resolve));
    },
  };
}

/** `GET /api/holdings` answering `body` (serialised per request, as the real route's is). */
export async function startBareKoa(body: unknown): Promise<BareServer> {
  const app = new Koa();
  const router = new Router();
  router.get('/api/holdings', (ctx) => {
    ctx.body = body;
  });
  app.use(router.routes());
  const server: Server = createServer(app.callback());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clients: () => 0,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
