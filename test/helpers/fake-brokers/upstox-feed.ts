/**
 * A local Upstox Market Data Feed V3, byte for byte (docs/live-prices.md#upstox; from
 * upstox/upstox-nodejs `MarketDataFeederV3.js` and `proto/MarketDataFeedV3.proto`), on one port
 * as api.upstox.com serves both:
 * - `GET /v3/feed/market-data-feed/authorize` with `Authorization: Bearer <token>`: 200
 *   `{"status":"success","data":{"authorized_redirect_uri":"ws://…?requestId=…&code=…"}}`, a URL
 *   good for one connection; a token it does not know: 401 with Upstox's error body (UDAPI100050).
 * - The WebSocket at that URL: a used or unknown code is refused on the upgrade (401; Upstox's
 *   exact answer is not documented). The first message is a `market_info` FeedResponse; requests
 *   are UTF-8 JSON in BINARY frames (`{guid, method: sub|change_mode|unsub, data: {mode,
 *   instrumentKeys}}`, a text frame is recorded and ignored); prices go out as `live_feed`
 *   FeedResponses (an `initial_feed` snapshot on subscribe) encoded with protobufjs from
 *   Upstox's message definitions below (its field numbers and types; proto3 leaves zeros out);
 *   a full-mode update may leave out `ltpc`, as Upstox's does; WebSocket pings every second.
 * - Scriptable: prices, expiring every token (the 03:30 roll-over: sockets closed, authorize
 *   refused), killing and restarting on the same port, a flood.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import protobuf from 'protobufjs';
import type { WebSocket } from 'ws';
import { startWsFake, type WsFake } from './dhan-feed.ts';
import { upstoxError } from './upstox.ts';

/**
 * Upstox's `MarketDataFeedV3.proto` messages the fake sends (package, names, field numbers and
 * types as Upstox publishes them; depth, greeks and OHLC messages left out).
 */
const UPSTOX_PROTO = `
syntax = "proto3";
package com.upstox.marketdatafeederv3udapi.rpc.proto;
message LTPC { double ltp = 1; int64 ltt = 2; int64 ltq = 3; double cp = 4; }
enum Type { initial_feed = 0; live_feed = 1; market_info = 2; }
message MarketFullFeed { LTPC ltpc = 1; double atp = 5; int64 vtt = 6; double tbq = 9; double tsq = 10; }
message IndexFullFeed { LTPC ltpc = 1; }
message FullFeed { oneof FullFeedUnion { MarketFullFeed marketFF = 1; IndexFullFeed indexFF = 2; } }
message Feed { oneof FeedUnion { LTPC ltpc = 1; FullFeed fullFeed = 2; } RequestMode requestMode = 4; }
enum RequestMode { ltpc = 0; full_d5 = 1; option_greeks = 2; full_d30 = 3; }
enum MarketStatus { PRE_OPEN_START = 0; PRE_OPEN_END = 1; NORMAL_OPEN = 2; NORMAL_CLOSE = 3; CLOSING_START = 4; CLOSING_END = 5; }
message MarketInfo { map<string, MarketStatus> segmentStatus = 1; }
message FeedResponse { Type type = 1; map<string, Feed> feeds = 2; int64 currentTs = 3; MarketInfo marketInfo = 4; }
`;
const FeedResponse = protobuf
  .parse(UPSTOX_PROTO)
  .root.lookupType('com.upstox.marketdatafeederv3udapi.rpc.proto.FeedResponse');

/** One instrument's price as Upstox's LTPC carries it (rupees; `ltt` epoch ms). */
export interface UpstoxPrice {
  ltp: number;
  ltt: number;
  ltq?: number;
  cp?: number;
}

type Mode = 'ltpc' | 'full' | 'option_greeks' | 'full_d30';

/** A request as the client sent it. */
export interface UpstoxFeedRequest {
  binary: boolean;
  text: string;
  json?: { guid?: string; method?: string; data?: { mode?: Mode; instrumentKeys?: string[] } };
}

/** One feed of a FeedResponse: the price in `mode`'s shape; a full update may leave the price out. */
function feedOf(price: UpstoxPrice | undefined, mode: Mode): Record<string, unknown> {
  const ltpc = price && {
    ltp: price.ltp,
    ltt: price.ltt,
    ...(price.ltq !== undefined && { ltq: price.ltq }),
    ...(price.cp !== undefined && { cp: price.cp }),
  };
  if (mode === 'ltpc') return { ltpc };
  return { fullFeed: { marketFF: ltpc ? { ltpc } : {} }, requestMode: 'full_d5' };
}

/** Encodes one FeedResponse as Upstox sends it (`initial_feed`, type 0, left out as proto3 does). */
export function encodeUpstoxFeed(
  type: 'initial_feed' | 'live_feed',
  feeds: Array<{ key: string; price?: UpstoxPrice; mode?: Mode }>,
  currentTs: number,
): Buffer {
  const object = {
    ...(type === 'live_feed' && { type }),
    feeds: Object.fromEntries(feeds.map(({ key, price, mode = 'ltpc' }) => [key, feedOf(price, mode)])),
    currentTs,
  };
  return Buffer.from(FeedResponse.encode(FeedResponse.fromObject(object)).finish());
}

/** The first message of every connection: each segment's status. */
export function encodeUpstoxMarketInfo(segmentStatus: Record<string, string>, currentTs: number): Buffer {
  const object = { type: 'market_info', marketInfo: { segmentStatus }, currentTs };
  return Buffer.from(FeedResponse.encode(FeedResponse.fromObject(object)).finish());
}

export interface FakeUpstoxFeed extends WsFake {
  /** `UPSTOX_API_URL` for this fake. */
  url: string;
  /** A token it accepts now. */
  readonly accessToken: string;
  /** A fresh token (the operator logged in again). */
  issueToken(): string;
  /** Every token refused from now on and every socket closed (Upstox's 03:30 roll-over). */
  expireTokens(): void;
  /** Authorize calls (refused ones too), and upgrades accepted, since the start. */
  counts: { authorize: number; connections: number };
  /** Every request received, in order. */
  requests: UpstoxFeedRequest[];
  /** What each open socket holds subscribed: instrument key → mode. */
  subscriptions(): Array<Map<string, Mode>>;
  /** The last price of each key, as the fake last sent it. */
  prices: Map<string, UpstoxPrice>;
  /** Sends `live_feed` for `ticks` to each socket subscribed to them (`omitLtpc`: a full update without the price). */
  tick(ticks: Array<{ key: string } & Partial<UpstoxPrice> & { omitLtpc?: boolean }>): void;
  /** Ticks every key `perSecond` times a second for `ms`. */
  flood(keys: readonly string[], perSecond: number, ms: number): Promise<void>;
}

const AUTHORIZE = '/v3/feed/market-data-feed/authorize';
const FEED_PATH = '/v3/feed/market-data-feed';
const SEGMENTS = { NSE_EQ: 'NORMAL_OPEN', BSE_EQ: 'NORMAL_OPEN', NSE_INDEX: 'NORMAL_OPEN' };

/** Starts the feed fake on 127.0.0.1; `accessToken` is accepted until `expireTokens()`. */
export async function startFakeUpstoxFeed(options: { pingMs?: number } = {}): Promise<FakeUpstoxFeed> {
  const tokens = new Set<string>();
  const issueToken = () => {
    const token = `eyJ0eXAiOiJKV1QiLCJrZXlfaWQiOiJza192MS4wIn0.${randomBytes(18).toString('base64url')}`;
    tokens.add(token);
    return token;
  };
  let accessToken = issueToken();
  /** Authorised codes, deleted once used. */
  const codes = new Set<string>();
  const held = new Map<WebSocket, Map<string, Mode>>();
  const requests: UpstoxFeedRequest[] = [];
  const prices = new Map<string, UpstoxPrice>();
  const counts = { authorize: 0, connections: 0 };
  let port = 0;

  function json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  function authorize(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method !== 'GET' || url.pathname !== AUTHORIZE) {
      json(res, 404, upstoxError('UDAPI10000', 'This request is not supported by Upstox API'));
      return;
    }
    counts.authorize++;
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) {
      json(res, 401, upstoxError('UDAPI100050', 'Invalid token used to access API'));
      return;
    }
    const code = randomBytes(8).toString('hex');
    codes.add(code);
    const requestId = randomBytes(8).toString('hex');
    const uri = `ws://127.0.0.1:${port}${FEED_PATH}?requestId=${requestId}&code=${code}`;
    json(res, 200, { status: 'success', data: { authorized_redirect_uri: uri } });
  }

  function onRequest(socket: WebSocket, keys: Map<string, Mode>, data: Buffer, binary: boolean): void {
    const request: UpstoxFeedRequest = { binary, text: data.toString('utf8') };
    requests.push(request);
    if (!binary) return;
    try {
      request.json = JSON.parse(request.text) as UpstoxFeedRequest['json'];
    } catch {
      return;
    }
    const { method, data: body } = request.json ?? {};
    const list = body?.instrumentKeys ?? [];
    if (method === 'unsub') for (const key of list) keys.delete(key);
    if (method !== 'sub' && method !== 'change_mode') return;
    const mode = body?.mode ?? 'full';
    for (const key of list) keys.set(key, mode);
    const known = list.filter((key) => prices.has(key));
    if (known.length > 0)
      socket.send(
        encodeUpstoxFeed(
          'initial_feed',
          known.map((key) => ({ key, price: prices.get(key), mode })),
          Date.now(),
        ),
      );
  }

  const fake = await startWsFake({
    onHttp: authorize,
    refuse(req) {
      const url = new URL(req.url ?? '/', 'http://fake');
      const code = url.searchParams.get('code') ?? '';
      if (url.pathname === FEED_PATH && codes.delete(code)) return undefined;
      return { status: 401 };
    },
    onConnection(socket) {
      counts.connections++;
      const keys = new Map<string, Mode>();
      held.set(socket, keys);
      const pinger = setInterval(() => socket.ping(), options.pingMs ?? 1000);
      socket.on('close', () => {
        clearInterval(pinger);
        held.delete(socket);
      });
      socket.on('message', (data: Buffer, binary) => onRequest(socket, keys, data, binary));
      socket.send(encodeUpstoxMarketInfo(SEGMENTS, Date.now()));
    },
  });
  port = fake.port;

  const tick: FakeUpstoxFeed['tick'] = (ticks) => {
    const now = Date.now();
    for (const { key, ltp, ltt, ltq, cp } of ticks) {
      const before = prices.get(key);
      prices.set(key, {
        ...before,
        ltp: ltp ?? before?.ltp ?? 0,
        ltt: ltt ?? now,
        ...(ltq !== undefined && { ltq }),
        ...(cp !== undefined && { cp }),
      });
    }
    for (const [socket, keys] of held) {
      const feeds = ticks.flatMap(({ key, omitLtpc }) => {
        const mode = keys.get(key);
        if (!mode) return [];
        return [{ key, mode, price: omitLtpc && mode !== 'ltpc' ? undefined : prices.get(key) }];
      });
      if (feeds.length > 0) socket.send(encodeUpstoxFeed('live_feed', feeds, now));
    }
  };

  return {
    ...fake,
    url: `http://127.0.0.1:${port}`,
    get accessToken() {
      return accessToken;
    },
    issueToken: () => (accessToken = issueToken()),
    expireTokens() {
      tokens.clear();
      codes.clear();
      for (const socket of held.keys()) socket.close(1000);
    },
    counts,
    requests,
    subscriptions: () => [...held.values()].map((keys) => new Map(keys)),
    prices,
    tick,
    async flood(keys, perSecond, ms) {
      const rounds = Math.max(1, Math.round((ms / 1000) * perSecond));
      for (let round = 0; round < rounds; round++) {
        tick(keys.map((key, i) => ({ key, ltp: 100 + ((i * 13 + round * 7) % 5000) / 20 })));
        await new Promise((resolve) => setTimeout(resolve, 1000 / perSecond));
      }
    },
  };
}
