import { expect } from 'chai';
import protobuf from 'protobufjs';
import { decodeFeedResponse } from '../../../streamer/src/streams/upstox/decode.ts';
import { createUpstoxStream } from '../../../streamer/src/streams/upstox/stream.ts';
import type { StreamState } from '../../../streamer/src/streams/types.ts';
import { startWsFake } from '../../helpers/fake-brokers/dhan-feed.ts';
import { startFakeServer } from '../../helpers/fake-brokers/scripted.ts';
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
      isins: new Map([['NSE:RELIANCE', 'INE002A01018']]),
      log: captureLog().log,
      timings: { backoffBaseMs: 50, backoffMaxMs: 200 },
    });
    expect(
      stream.watch([
        { symbol: 'RELIANCE', exchange: 'NSE' },
        { symbol: 'NOISIN', exchange: 'NSE' },
      ]).unsupported,
    ).to.deep.equal([{ symbol: 'NOISIN', exchange: 'NSE' }]);
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
});
