/**
 * A local stand-in for Kite Connect's WebSocket ticker (`wss://ws.kite.trade`) and its instruments
 * list (`GET /instruments`), speaking Kite's protocol byte for byte (the notes on the Kite ticker
 * in the team's research; frames checked against zerodha/kiteconnectjs `test/*_binary.packet`,
 * `data/samples/kite/kiteconnectjs_*.packet`):
 * - the upgrade `?api_key=…&access_token=…` is answered 403 for a wrong key or a dead token, 429
 *   for a 4th connection of the key; a connection carries at most 3,000 instruments (beyond: a
 *   text `{"type":"error","data":…}`, the rest ignored);
 * - `{"a":"subscribe"|"unsubscribe","v":[tokens]}`, `{"a":"mode","v":[mode,[tokens]]}` (a new
 *   subscription is in quote mode; a mode change answers with each token's current packet);
 * - ticks are binary frames (int16 count, then int16 length + packet, big-endian, prices in paise)
 *   encoded here; a 1-byte heartbeat each second a socket has had nothing else;
 * - `GET /instruments` (`X-Kite-Version: 3`, `Authorization: token key:access_token`): the CSV
 *   with Kite's header, plain or gzipped.
 * Scriptable: prices, expiring the token, killing and restarting the server, muting it, a flood.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { WebSocketServer, type WebSocket } from 'ws';
import { encodeKiteFrame, encodeKitePacket, type FakeKiteTick, type Mode } from './kite-ticker-frames.ts';

export const FAKE_KITE_TICKER_API_KEY = 'fakekitetickerkey';

const CSV_HEADER =
  'instrument_token,exchange_token,tradingsymbol,name,last_price,expiry,strike,tick_size,lot_size,instrument_type,segment,exchange';
/** Kite's instrument token of an NSE or BSE equity: the exchange token, then the segment byte. */
export const kiteToken = (exchangeToken: number, exchange: 'NSE' | 'BSE') =>
  exchangeToken * 256 + (exchange === 'NSE' ? 1 : 4);

export interface FakeKiteInstrument {
  token: number;
  exchangeToken: number;
  symbol: string;
  exchange: 'NSE' | 'BSE';
}

export interface FakeTickerConnection {
  subscribed: Map<number, Mode>;
  messages: unknown[];
}

export interface FakeKiteTicker {
  /** Base URL of the REST side (`/instruments`). */
  url: string;
  wsUrl: string;
  apiKey: string;
  /** The access token the fake accepts now. */
  accessToken: string;
  /** Open connections, oldest first. */
  connections(): FakeTickerConnection[];
  /** Every upgrade answered: 101, 403 or 429. */
  upgrades: number[];
  instruments: FakeKiteInstrument[];
  /** Lists instruments (tokens made from consecutive exchange tokens); answers them. */
  addInstruments(
    list: { symbol: string; exchange: 'NSE' | 'BSE'; exchangeToken?: number }[],
  ): FakeKiteInstrument[];
  gzipInstruments: boolean;
  /** Sets instruments' state and sends each subscribed socket one frame in its modes. */
  tick(ticks: FakeKiteTick[]): void;
  /** The latest state of each token. */
  state: Map<number, FakeKiteTick>;
  /** Packets sent so far in binary frames, over every socket (B12 divides the streamer's CPU by them). */
  packetsSent: number;
  /** Stops heartbeats and ticks (a socket that went silent) until unmuted. */
  muted: boolean;
  /** Kite's 06:00 expiry: closes every socket; the token is refused from now on. */
  expireToken(): void;
  /** A fresh token, accepted from now on. */
  issueToken(): string;
  /**
   * Also accepts the tokens another fake issued (the fake Kite Connect's logins), as Kite's
   * ticker takes any live session of the app, until `expireToken()` ends them too.
   */
  acceptIssued(issued: () => readonly string[]): void;
  /** Ends every socket and stops listening; `restart()` listens again on the same port. */
  kill(): Promise<void>;
  restart(): Promise<void>;
  /** Ticks `tokens` `perSecond` times a second for `ms`, one frame per socket per round. */
  flood(tokens: number[], perSecond: number, ms: number): Promise<void>;
  close(): Promise<void>;
}

const FORBIDDEN = 'HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n';
const TOO_MANY = 'HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n';

export async function startFakeKiteTicker(): Promise<FakeKiteTicker> {
  const sockets = new Map<WebSocket, FakeTickerConnection & { lastSent: number }>();
  const wss = new WebSocketServer({ noServer: true });
  const rawSockets = new Set<Socket>();
  let nextToken = 1;
  let liveToken = `kitetoken${nextToken++}`;
  let issuedElsewhere: () => readonly string[] = () => [];
  const expired = new Set<string>();
  const accepts = (token: string | null) =>
    token !== null && (token === liveToken || (!expired.has(token) && issuedElsewhere().includes(token)));

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/instruments') return void res.writeHead(404).end();
    const [scheme, pair] = (req.headers.authorization ?? '').split(' ');
    const [key, token] = (pair ?? '').split(':');
    if (
      req.headers['x-kite-version'] !== '3' ||
      scheme !== 'token' ||
      key !== fake.apiKey ||
      !accepts(token ?? null)
    ) {
      res.writeHead(403, { 'Content-Type': 'application/json' });
      const message = 'Incorrect `api_key` or `access_token`.';
      return void res.end(
        JSON.stringify({ status: 'error', message, data: null, error_type: 'TokenException' }),
      );
    }
    const rows = fake.instruments.map(
      (i) =>
        `${i.token},${i.exchangeToken},${i.symbol},${i.symbol} LTD,0.0,,0.0,0.05,1,EQ,${i.exchange},${i.exchange}`,
    );
    const csv = `${CSV_HEADER}\n${rows.join('\n')}\n`;
    res.writeHead(200, { 'Content-Type': fake.gzipInstruments ? 'application/gzip' : 'text/csv' });
    res.end(fake.gzipInstruments ? gzipSync(csv) : csv);
  });
  server.on('connection', (socket) => {
    rawSockets.add(socket);
    socket.on('close', () => rawSockets.delete(socket));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const query = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    const refuse = (status: number, answer: string) => {
      fake.upgrades.push(status);
      socket.end(answer);
    };
    if (query.get('api_key') !== fake.apiKey || !accepts(query.get('access_token')))
      return refuse(403, FORBIDDEN);
    if (sockets.size >= 3) return refuse(429, TOO_MANY);
    fake.upgrades.push(101);
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws));
  });

  function accept(ws: WebSocket): void {
    const connection = {
      subscribed: new Map<number, Mode>(),
      messages: [] as unknown[],
      lastSent: Date.now(),
    };
    sockets.set(ws, connection);
    ws.on('close', () => sockets.delete(ws));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let message: { a?: string; v?: unknown };
      try {
        message = JSON.parse(data.toString()) as typeof message;
      } catch (error) {
        return sendText(ws, `invalid message: ${(error as Error).message}`);
      }
      connection.messages.push(message);
      if (message.a === 'subscribe' && Array.isArray(message.v)) {
        for (const token of message.v as number[]) {
          if (connection.subscribed.has(token)) continue;
          if (connection.subscribed.size >= 3000)
            return sendText(ws, 'Maximum instruments per connection exceeded');
          connection.subscribed.set(token, 'quote');
        }
      } else if (message.a === 'unsubscribe' && Array.isArray(message.v)) {
        for (const token of message.v as number[]) connection.subscribed.delete(token);
      } else if (message.a === 'mode' && Array.isArray(message.v)) {
        const [mode, tokens] = message.v as [Mode, number[]];
        const changed = tokens.filter((t) => connection.subscribed.has(t));
        for (const token of changed) connection.subscribed.set(token, mode);
        send(
          ws,
          changed.flatMap((t) => (fake.state.has(t) ? [encodeKitePacket(fake.state.get(t)!, mode)] : [])),
        );
      }
    });
  }

  function sendText(ws: WebSocket, data: string): void {
    ws.send(JSON.stringify({ type: 'error', data }));
  }

  function send(ws: WebSocket, packets: Buffer[]): void {
    if (packets.length === 0 || fake.muted) return;
    const connection = sockets.get(ws);
    if (connection) connection.lastSent = Date.now();
    fake.packetsSent += packets.length;
    for (let i = 0; i < packets.length; i += 1000) ws.send(encodeKiteFrame(packets.slice(i, i + 1000)));
  }

  const heartbeat = setInterval(() => {
    if (fake.muted) return;
    for (const [ws, connection] of sockets)
      if (Date.now() - connection.lastSent >= 1000) {
        connection.lastSent = Date.now();
        ws.send(Buffer.from([0]));
      }
  }, 250);

  const listen = async (port: number) => {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return (server.address() as AddressInfo).port;
  };
  const port = await listen(0);
  const base = `127.0.0.1:${port}`;

  async function kill(): Promise<void> {
    for (const ws of sockets.keys()) ws.terminate();
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of rawSockets) socket.destroy();
    await closed;
  }

  const fake: FakeKiteTicker = {
    url: `http://${base}`,
    wsUrl: `ws://${base}/`,
    apiKey: FAKE_KITE_TICKER_API_KEY,
    get accessToken() {
      return liveToken;
    },
    connections: () => [...sockets.values()],
    upgrades: [],
    instruments: [
      { token: 884737, exchangeToken: 3456, symbol: 'TATAMOTORS', exchange: 'NSE' },
      { token: 408065, exchangeToken: 1594, symbol: 'INFY', exchange: 'NSE' },
    ],
    addInstruments(list) {
      let next = 100_000 + fake.instruments.length;
      const added = list.map(({ symbol, exchange, exchangeToken = next++ }) => ({
        token: kiteToken(exchangeToken, exchange),
        exchangeToken,
        symbol,
        exchange,
      }));
      fake.instruments.push(...added);
      return added;
    },
    gzipInstruments: false,
    tick(ticks) {
      for (const tick of ticks) fake.state.set(tick.token, { ...fake.state.get(tick.token), ...tick });
      for (const [ws, connection] of sockets) {
        const packets = ticks.flatMap(({ token }) => {
          const mode = connection.subscribed.get(token);
          return mode ? [encodeKitePacket(fake.state.get(token)!, mode)] : [];
        });
        send(ws, packets);
      }
    },
    state: new Map(),
    packetsSent: 0,
    muted: false,
    expireToken() {
      for (const token of issuedElsewhere()) expired.add(token);
      liveToken = `expired-${liveToken}`;
      for (const ws of sockets.keys()) ws.close(1000);
    },
    issueToken() {
      return (liveToken = `kitetoken${nextToken++}`);
    },
    acceptIssued(issued) {
      issuedElsewhere = issued;
    },
    kill,
    async restart() {
      await listen(port);
    },
    async flood(tokens, perSecond, ms) {
      const rounds = Math.max(1, Math.round((ms / 1000) * perSecond));
      for (let round = 0; round < rounds; round++) {
        const time = Date.now();
        fake.tick(
          tokens.map((token) => ({
            token,
            ltp: 100 + ((token + round * 7) % 5000) / 20,
            exchangeTime: time,
          })),
        );
        await new Promise((resolve) => setTimeout(resolve, 1000 / perSecond));
      }
    },
    async close() {
      clearInterval(heartbeat);
      await kill();
      wss.close();
    },
  };
  return fake;
}
