/**
 * The baselines: what the same job costs with nothing of ours in the way. A bare `ws` server
 * fed by a Redis subscriber sends each connection the same per-user payload as the quote
 * fan-out; a bare Koa route answers with a constant.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { instrumentKey, MARKET_KEYS, type TickBatch } from '@app/common/market/tick-batch';
import type { LiveQuote } from '@app/common/realtime/events';
import Router from '@koa/router';
import { Redis } from 'ioredis';
import Koa from 'koa';
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
  const subscriber = new Redis(spec.redisUrl);
  subscriber.on('message', (_channel: string, message: string) => {
    const batch = JSON.parse(message) as TickBatch;
    const byKey = new Map<string, LiveQuote>();
    for (const q of batch.quotes) {
      const { symbol, exchange, ltp, prevClose, change, changePercent, asOf } = q;
      byKey.set(instrumentKey(exchange, symbol), {
        symbol,
        exchange,
        ltp,
        prevClose,
        change,
        changePercent,
        asOf,
      });
    }
    for (const [ws, keys] of keysOf) {
      const quotes: LiveQuote[] = [];
      for (const key of keys) {
        const quote = byKey.get(key);
        if (quote) quotes.push(quote);
      }
      if (quotes.length) ws.send(JSON.stringify({ at: batch.at, quotes }));
    }
  });
  await subscriber.subscribe(MARKET_KEYS.ticksChannel);
  const { port } = wss.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clients: () => wss.clients.size,
    async close() {
      subscriber.disconnect();
      for (const ws of wss.clients) ws.terminate();
      await new Promise((resolve) => wss.close(resolve));
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
