/**
 * A local Dhan live market feed v2 (dhanhq.co/docs/v2/live-market-feed), byte for byte:
 * credentials in the query (`version=2&token&clientId&authType=2`); a bad token gets a disconnect
 * packet (code 50, reason 807 expired / 809 auth failed) and a close; JSON subscriptions (code
 * 15, at most 100 instruments a message); little-endian ticker packets (code 2: 8-byte header,
 * float32 LTP, int32 LTT) and previous-close packets (code 6). Also the WebSocket fake the Upstox
 * and Angel One feeds share (`startWsFake`): kill and restart on the same port.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface WsFake {
  port: number;
  sockets: Set<WebSocket>;
  /** Drops every socket and stops listening (a broker outage). */
  kill(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

interface WsFakeOptions {
  /** Refuses an upgrade with this answer, or undefined to accept it. */
  refuse?(req: IncomingMessage): { status: number; headers?: Record<string, string> } | undefined;
  onConnection(socket: WebSocket, req: IncomingMessage): void;
  onHttp?(req: IncomingMessage, res: ServerResponse): void;
}

/** A node:http server on 127.0.0.1 that upgrades to WebSocket as `options` say. */
export async function startWsFake(options: WsFakeOptions): Promise<WsFake> {
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<WebSocket>();
  let server: Server | undefined;
  let port = 0;
  async function listen(): Promise<void> {
    const http = createServer((req, res) =>
      options.onHttp ? options.onHttp(req, res) : res.writeHead(404).end(),
    );
    http.on('upgrade', (req, socket, head) => {
      const refusal = options.refuse?.(req);
      if (refusal) {
        const headers = Object.entries(refusal.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`);
        socket.end(`HTTP/1.1 ${refusal.status} Unauthorized\r\n${headers.join('')}Content-Length: 0\r\n\r\n`);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        sockets.add(ws);
        ws.on('close', () => sockets.delete(ws));
        options.onConnection(ws, req);
      });
    });
    http.listen(port, '127.0.0.1');
    await once(http, 'listening');
    port = (http.address() as AddressInfo).port;
    server = http;
  }
  async function kill(): Promise<void> {
    for (const socket of sockets) socket.terminate();
    sockets.clear();
    const current = server;
    server = undefined;
    if (!current) return;
    current.closeAllConnections();
    await new Promise<void>((resolve) => current.close(() => resolve()));
  }
  await listen();
  return { port, sockets, kill, restart: listen, close: kill };
}

/** An 8-byte Dhan header. */
function header(code: number, length: number, segment: number, securityId: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeUInt8(code, 0);
  bytes.writeUInt16LE(length, 1);
  bytes.writeUInt8(segment, 3);
  bytes.writeInt32LE(securityId, 4);
  return bytes;
}

/** Code 2: a ticker packet (16 bytes). */
export function dhanTickerPacket(segment: number, securityId: number, ltp: number, ltt: number): Buffer {
  const body = Buffer.alloc(8);
  body.writeFloatLE(ltp, 0);
  body.writeInt32LE(ltt, 4);
  return Buffer.concat([header(2, 16, segment, securityId), body]);
}

/** Code 6: a previous-close packet (16 bytes). */
export function dhanPrevClosePacket(segment: number, securityId: number, prevClose: number): Buffer {
  const body = Buffer.alloc(8);
  body.writeFloatLE(prevClose, 0);
  return Buffer.concat([header(6, 16, segment, securityId), body]);
}

/** Code 50: a disconnect packet with its reason (805–809). */
export function dhanDisconnectPacket(reason: number): Buffer {
  const body = Buffer.alloc(2);
  body.writeInt16LE(reason, 0);
  return Buffer.concat([header(50, 10, 0, 0), body]);
}

const SEGMENTS: Record<string, number> = { NSE_EQ: 1, BSE_EQ: 4 };

export interface FakeDhanFeed extends WsFake {
  url: string;
  /** Tokens it accepts, with the client id each belongs to. */
  tokens: Map<string, string>;
  /** What the sockets hold subscribed now (`NSE_EQ|1333`), across connections. */
  subscribed(): Set<string>;
  /** Every subscribe message received, as sent. */
  messages: Array<{ RequestCode: number; InstrumentCount: number; InstrumentList: unknown[] }>;
  /** Sends a ticker (with LTT as Dhan counts it) to the sockets subscribed to `key`. */
  tick(key: string, ltp: number, ltt: number): void;
  /** Sends `reason`'s disconnect packet to every socket and closes them. */
  disconnectAll(reason: number): void;
}

/** Starts the Dhan feed fake; `tokens` decides who is let in. */
export async function startFakeDhanFeed(): Promise<FakeDhanFeed> {
  const tokens = new Map<string, string>();
  const held = new Map<WebSocket, Set<string>>();
  const messages: FakeDhanFeed['messages'] = [];
  const fake = await startWsFake({
    onConnection(socket, req) {
      const query = new URL(req.url ?? '/', 'http://fake').searchParams;
      const token = query.get('token') ?? '';
      const known = tokens.get(token);
      if (query.get('version') !== '2' || query.get('authType') !== '2' || known !== query.get('clientId')) {
        socket.send(dhanDisconnectPacket(known === undefined ? 807 : 808));
        socket.close();
        return;
      }
      const keys = new Set<string>();
      held.set(socket, keys);
      socket.on('close', () => held.delete(socket));
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as FakeDhanFeed['messages'][number];
        messages.push(message);
        if (
          message.InstrumentList.length > 100 ||
          message.InstrumentCount !== message.InstrumentList.length
        ) {
          socket.close(1008);
          return;
        }
        for (const item of message.InstrumentList as Array<{ ExchangeSegment: string; SecurityId: string }>) {
          const key = `${item.ExchangeSegment}|${item.SecurityId}`;
          if (message.RequestCode === 15) keys.add(key);
          if (message.RequestCode === 16) keys.delete(key);
        }
      });
    },
  });
  return {
    ...fake,
    url: `ws://127.0.0.1:${fake.port}`,
    tokens,
    messages,
    subscribed: () => new Set([...held.values()].flatMap((keys) => [...keys])),
    tick(key, ltp, ltt) {
      const [segment, id] = key.split('|') as [string, string];
      for (const [socket, keys] of held)
        if (keys.has(key)) socket.send(dhanTickerPacket(SEGMENTS[segment]!, Number(id), ltp, ltt));
    },
    disconnectAll(reason) {
      for (const socket of held.keys()) {
        socket.send(dhanDisconnectPacket(reason));
        socket.close();
      }
    },
  };
}
