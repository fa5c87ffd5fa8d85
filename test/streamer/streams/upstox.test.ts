import { once } from 'node:events';
import { expect } from 'chai';
import protobuf from 'protobufjs';
import WebSocket from 'ws';
import { decodeFeedResponse } from '../../../streamer/src/streams/upstox/decode.ts';
import { createUpstoxStream } from '../../../streamer/src/streams/upstox/stream.ts';
import type { StreamState } from '../../../streamer/src/streams/types.ts';
import { startWsFake } from '../../helpers/fake-brokers/dhan-feed.ts';
import { startFakeServer } from '../../helpers/fake-brokers/scripted.ts';
import { startFakeUpstoxFeed } from '../../helpers/fake-brokers/upstox-feed.ts';
import { captureLog } from '../../helpers/log.ts';
import { waitFor } from '../../helpers/wait.ts';

/** Hand-written protobuf, field numbers from Upstox's MarketDataFeedV3.proto (not our descriptor). */
function ltpc(ltp: number | undefined, ltt: number, cp: number): Uint8Array {
  const w = protobuf.Writer.create();
  if (ltp !== undefined) w.uint32((1 << 3) | 1).double(ltp);
  w.uint32((2 << 3) | 0).int64(ltt);
  w.uint32((4 << 3) | 1).double(cp);
  return w.finish();
}
const message = (field: number, bytes: Uint8Array) =>
  protobuf.Writer.create()
    .uint32((field << 3) | 2)
    .bytes(bytes)
    .finish();
function feedEntry(key: string, feed: Uint8Array): Uint8Array {
  const entry = protobuf.Writer.create()
    .uint32((1 << 3) | 2)
    .string(key)
    .uint32((2 << 3) | 2)
    .bytes(feed)
    .finish();
  return message(2, entry);
}
const response = (type: number, ...parts: Uint8Array[]) =>
  Buffer.concat([
    protobuf.Writer.create()
      .uint32((1 << 3) | 0)
      .int32(type)
      .finish(),
    ...parts,
  ]);

const currentTs = (ts: number) =>
  protobuf.Writer.create()
    .uint32((3 << 3) | 0)
    .int64(ts)
    .finish();

const at = Date.parse('2026-11-27T04:45:12.345Z');

describe('Upstox Market Data Feed V3 decoding', () => {
  it('reads an ltpc feed: doubles in rupees, ltt in epoch ms, cp the previous close', () => {
    const bytes = response(1, feedEntry('NSE_EQ|INE002A01018', message(1, ltpc(1234.55, at, 1220.1))));
    const decoded = decodeFeedResponse(bytes);
    expect(decoded.type).to.equal('live_feed');
    expect([...decoded.feeds]).to.deep.equal([
      ['NSE_EQ|INE002A01018', { ltp: 1234.55, ltt: at, cp: 1220.1 }],
    ]);
  });

  it('reads the ltpc inside a full feed, and a full update without one', () => {
    const full = message(2, message(1, message(1, ltpc(undefined, at, 17.05))));
    const bare = message(2, message(1, new Uint8Array()));
    const decoded = decodeFeedResponse(
      response(1, feedEntry('NSE_EQ|INE528G01035', full), feedEntry('BSE_EQ|INE528G01035', bare)),
    );
    expect(decoded.feeds.get('NSE_EQ|INE528G01035')).to.deep.equal({ ltt: at, cp: 17.05 });
    expect(decoded.feeds.get('BSE_EQ|INE528G01035')).to.equal(undefined);
  });

  it('reads market_info, the first message after connecting', () => {
    const status = protobuf.Writer.create()
      .uint32((1 << 3) | 2)
      .string('NSE_EQ')
      .uint32((2 << 3) | 0)
      .int32(2)
      .finish();
    const decoded = decodeFeedResponse(response(2, message(4, message(1, status))));
    expect(decoded).to.deep.equal({
      type: 'market_info',
      feeds: new Map(),
      segmentStatus: { NSE_EQ: 'NORMAL_OPEN' },
    });
  });

  it('throws on bytes that are not a FeedResponse (the stream logs and skips them)', () => {
    expect(() => decodeFeedResponse(Buffer.from([0x12, 0xff, 0x01]))).to.throw();
  });
});

describe('Upstox Market Data Feed V3 stream', () => {
  it('asks authorize with the Bearer token, subscribes ltpc in a binary frame, and takes a 401 as refused', async () => {
    const frames: Array<{ binary: boolean; text: string }> = [];
    const feed = await startWsFake({
      onConnection: (socket) =>
        socket.on('message', (data, binary) => frames.push({ binary, text: String(data) })),
    });
    const api = await startFakeServer((req) =>
      req.headers.authorization === 'Bearer good'
        ? {
            status: 200,
            json: {
              status: 'success',
              data: { authorized_redirect_uri: `ws://127.0.0.1:${feed.port}/?code=1` },
            },
          }
        : {
            status: 401,
            json: {
              status: 'error',
              errors: [{ errorCode: 'UDAPI100050', message: 'Invalid token used to access API' }],
            },
          },
    );
    const states: StreamState[] = [];
    const stream = createUpstoxStream({
      urls: { api: api.url },
      credentials: { accessToken: 'stale' },
      log: captureLog().log,
      timings: { backoffBaseMs: 50, backoffMaxMs: 200 },
    });
    expect(
      stream.watch([
        { symbol: 'RELIANCE', exchange: 'NSE', isin: 'INE002A01018' },
        { symbol: 'NOISIN', exchange: 'NSE' },
        { symbol: 'BADISIN', exchange: 'NSE', isin: 'NSE_EQ|x' },
      ]).unsupported,
    ).to.deep.equal([
      { symbol: 'NOISIN', exchange: 'NSE' },
      { symbol: 'BADISIN', exchange: 'NSE', isin: 'NSE_EQ|x' },
    ]);
    stream.start({ onQuote: () => undefined, onState: (state) => states.push(state) });
    const refused = await waitFor('refused', () => states.find((s) => s.state === 'auth_refused'));
    expect(refused).to.deep.equal({
      state: 'auth_refused',
      reason: 'authorize answered 401 UDAPI100050: Invalid token used to access API',
    });
    stream.setCredentials({ accessToken: 'good' });
    const frame = await waitFor('a subscribe frame', () => frames[0]);
    expect(frame.binary).to.equal(true);
    expect(JSON.parse(frame.text)).to.deep.include({
      method: 'sub',
      data: { mode: 'ltpc', instrumentKeys: ['NSE_EQ|INE002A01018'] },
    });
    await stream.stop();
    await feed.close();
    await api.close();
  });
  it('tells an open socket a growing watch set in one subscribe message, and a shrinking one in one unsubscribe', async () => {
    const frames: Array<{ method: string; instrumentKeys: string[] }> = [];
    const feed = await startWsFake({
      onConnection: (socket) =>
        socket.on('message', (data) => {
          const { method, data: body } = JSON.parse(String(data)) as {
            method: string;
            data: { instrumentKeys: string[] };
          };
          frames.push({ method, instrumentKeys: body.instrumentKeys });
        }),
    });
    const api = await startFakeServer(() => ({
      status: 200,
      json: { status: 'success', data: { authorized_redirect_uri: `ws://127.0.0.1:${feed.port}/?code=1` } },
    }));
    const stream = createUpstoxStream({
      urls: { api: api.url },
      credentials: { accessToken: 'good' },
      log: captureLog().log,
    });
    const isin = (i: number) => `INE${String(i).padStart(8, '0')}1`;
    const watch = (n: number) =>
      stream.watch(
        Array.from({ length: n }, (_, i) => ({ symbol: `S${i}`, exchange: 'NSE' as const, isin: isin(i) })),
      );
    watch(1);
    stream.start({ onQuote: () => undefined, onState: () => undefined });
    await waitFor('the first subscribe', () => frames[0]);
    expect(watch(21).unsupported).to.deep.equal([]);
    await waitFor('the next subscribe', () => frames[1]);
    watch(5);
    await waitFor('the unsubscribe', () => frames[2]);
    await stream.stop();
    expect(frames.map((f) => [f.method, f.instrumentKeys.length])).to.deep.equal([
      ['sub', 1],
      ['sub', 20],
      ['unsub', 16],
    ]);
    expect(frames[1]!.instrumentKeys[0]).to.equal(`NSE_EQ|${isin(1)}`);
    await feed.close();
    await api.close();
  });
});

describe("the Upstox feed fake, against Upstox's documented wire format", () => {
  it('refuses a bad token with the documented body, authorises a URL once, sends market_info first, then the proto bytes', async () => {
    const fake = await startFakeUpstoxFeed();
    const sockets: WebSocket[] = [];
    try {
      const authorize = `${fake.url}/v3/feed/market-data-feed/authorize`;
      const refused = await fetch(authorize, { headers: { authorization: 'Bearer expired' } });
      expect(refused.status).to.equal(401);
      // Upstox's error envelope as the live API answers it (docs/live-prices.md#upstox).
      expect(await refused.json()).to.deep.equal(
        JSON.parse(
          '{"status":"error","errors":[{"errorCode":"UDAPI100050","message":"Invalid token used to access API","propertyPath":null,"invalidValue":null,"error_code":"UDAPI100050","property_path":null,"invalid_value":null}]}',
        ),
      );
      const answer = await fetch(authorize, {
        headers: { authorization: `Bearer ${fake.accessToken}`, accept: 'application/json' },
      });
      const body = (await answer.json()) as { status: string; data: { authorized_redirect_uri: string } };
      expect(body.status).to.equal('success');
      const url = body.data.authorized_redirect_uri;
      expect(url).to.match(/\/v3\/feed\/market-data-feed\?requestId=\w+&code=\w+$/);

      const socket = new WebSocket(url);
      sockets.push(socket);
      const frames: Buffer[] = [];
      socket.on('message', (data: Buffer) => frames.push(data));
      await once(socket, 'open');
      const first = decodeFeedResponse(await waitFor('the first message', () => frames[0]));
      expect(first).to.deep.include({ type: 'market_info' });
      expect(first.segmentStatus).to.include({ NSE_EQ: 'NORMAL_OPEN', BSE_EQ: 'NORMAL_OPEN' });

      // Upstox's documented subscribe sample, word for word, in a binary frame.
      socket.send(
        Buffer.from(
          '{"guid":"<uuid>","method":"sub","data":{"mode":"ltpc","instrumentKeys":["NSE_EQ|INE002A01018"]}}',
        ),
      );
      await waitFor('subscribed', () => fake.subscriptions()[0]?.get('NSE_EQ|INE002A01018') === 'ltpc');
      fake.tick([{ key: 'NSE_EQ|INE002A01018', ltp: 1234.55, ltt: at, cp: 1220.1 }]);
      const live = await waitFor('a live_feed', () => frames[1]);
      const sentAt = decodeFeedResponse(live).currentTs!;
      expect(live).to.deep.equal(
        Buffer.concat([
          response(1, feedEntry('NSE_EQ|INE002A01018', message(1, ltpc(1234.55, at, 1220.1)))),
          currentTs(sentAt),
        ]),
      );

      // A full-mode update may leave the price out (requestMode full_d5 = 1, field 4).
      socket.send(
        Buffer.from(
          JSON.stringify({
            guid: 'g2',
            method: 'change_mode',
            data: { mode: 'full', instrumentKeys: ['NSE_EQ|INE002A01018'] },
          }),
        ),
      );
      await waitFor('full mode', () => fake.subscriptions()[0]?.get('NSE_EQ|INE002A01018') === 'full');
      const before = frames.length;
      fake.tick([{ key: 'NSE_EQ|INE002A01018', omitLtpc: true }]);
      const bare = await waitFor('a full update', () => frames[before]);
      const mode = protobuf.Writer.create()
        .uint32((4 << 3) | 0)
        .int32(1)
        .finish();
      expect(bare).to.deep.equal(
        Buffer.concat([
          response(
            1,
            feedEntry('NSE_EQ|INE002A01018', Buffer.concat([message(2, message(1, new Uint8Array())), mode])),
          ),
          currentTs(decodeFeedResponse(bare).currentTs!),
        ]),
      );

      const reused = new WebSocket(url);
      sockets.push(reused);
      reused.on('error', () => undefined);
      const [, res] = (await once(reused, 'unexpected-response')) as [unknown, { statusCode: number }];
      expect(res.statusCode, 'the authorised URL is single-use').to.equal(401);
    } finally {
      for (const socket of sockets) socket.terminate();
      await fake.close();
    }
  });
});
