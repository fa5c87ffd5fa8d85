import { expect } from 'chai';
import { readShared } from '../../helpers/shared-data.ts';
import { captureLog } from '../../helpers/log.ts';
import { waitFor } from '../../helpers/wait.ts';
import {
  dhanDisconnectPacket,
  dhanPrevClosePacket,
  dhanTickerPacket,
  startFakeDhanFeed,
  type FakeDhanFeed,
} from '../../helpers/fake-brokers/dhan-feed.ts';
import { decodeDhanFrame } from '../../../streamer/src/streams/dhan/decode.ts';
import { dhanSecurityIdsFromScripMaster } from '../../../streamer/src/streams/dhan/scrip-master.ts';
import { createDhanStream } from '../../../streamer/src/streams/dhan/stream.ts';
import type { StreamQuote, StreamState } from '../../../streamer/src/streams/types.ts';

/** DhanHQ-py's ticker fixture: what its SDK printed for one ticker packet. */
const sample = JSON.parse(readShared('data/samples/dhan/DhanHQ-py_tests_data_market_feed_ticker.json')) as {
  security_id: string;
  last_price: number;
  last_trade_time: string;
};

/** Seconds Dhan would send for `hhmmss` on 27 Nov 2026 (Indian wall time counted as UTC). */
const lttAt = (hhmmss: string) => Date.parse(`2026-11-27T${hhmmss}Z`) / 1000;

describe('Dhan live feed v2', () => {
  describe('decoding', () => {
    it("reads a ticker packet as DhanHQ-py's fixture shows it: float32 rupees, LTT in Indian time", () => {
      const frame = dhanTickerPacket(
        1,
        Number(sample.security_id),
        sample.last_price,
        lttAt(sample.last_trade_time),
      );
      expect(frame.length).to.equal(16);
      const [packet] = decodeDhanFrame(frame);
      expect(packet).to.deep.equal({
        kind: 'price',
        segment: 1,
        securityId: 1333,
        ltp: 1500,
        ltt: lttAt('10:30:00'),
      });
    });

    it('reads several packets in one frame, prices rounded to paise, and the disconnect reason', () => {
      const frame = Buffer.concat([
        dhanPrevClosePacket(4, 532540, 3912.35),
        dhanTickerPacket(4, 532540, 3915.05, 1),
        dhanDisconnectPacket(807),
      ]);
      const packets = decodeDhanFrame(frame);
      expect(packets).to.deep.equal([
        { kind: 'prev_close', segment: 4, securityId: 532540, prevClose: 3912.35 },
        { kind: 'price', segment: 4, securityId: 532540, ltp: 3915.05, ltt: 1 },
        { kind: 'disconnect', reason: 807 },
      ]);
    });

    it('reports short packets and unknown codes instead of failing', () => {
      const short = dhanTickerPacket(1, 1333, 10, 1).subarray(0, 12);
      expect(decodeDhanFrame(short)[0]).to.include({ kind: 'skipped' });
      const unknown = Buffer.alloc(8);
      unknown.writeUInt8(7, 0);
      unknown.writeUInt16LE(8, 1);
      expect(decodeDhanFrame(unknown)[0]).to.deep.equal({ kind: 'skipped', why: 'response code 7 not read' });
      expect(decodeDhanFrame(Buffer.from([2, 1]))[0]).to.include({ kind: 'skipped' });
    });

    it('loads security ids from api-scrip-master.csv columns, equities only', () => {
      const csv = [
        'SEM_EXM_EXCH_ID,SEM_SEGMENT,SEM_SMST_SECURITY_ID,SEM_INSTRUMENT_NAME,SEM_TRADING_SYMBOL,SEM_SERIES',
        'NSE,E,1333,EQUITY,HDFCBANK,EQ',
        'BSE,E,500180,EQUITY,HDFCBANK,A',
        'NSE,D,35001,FUTSTK,HDFCBANK-Nov2026-FUT,XX',
        'NSE,I,13,INDEX,NIFTY,X',
      ].join('\n');
      expect([...dhanSecurityIdsFromScripMaster(csv)]).to.deep.equal([
        ['NSE:HDFCBANK', '1333'],
        ['BSE:HDFCBANK', '500180'],
      ]);
    });
  });

  describe('the stream against the fake feed', () => {
    let fake: FakeDhanFeed;
    const securityIds = new Map([
      ['NSE:HDFCBANK', '1333'],
      ['BSE:RELIANCE', '500325'],
      ['NSE:SBIN', '3045'],
    ]);
    beforeEach(async () => {
      fake = await startFakeDhanFeed();
      fake.tokens.set('token-1', '1100000001');
    });
    afterEach(() => fake.close());

    function open(accessToken = 'token-1') {
      const quotes: StreamQuote[] = [];
      const states: StreamState[] = [];
      const stream = createDhanStream({
        urls: { ws: fake.url },
        credentials: { accessToken, clientId: '1100000001' },
        securityIds,
        log: captureLog().log,
        timings: { watchdogMs: 1000, backoffBaseMs: 50, backoffMaxMs: 200 },
      });
      stream.start({ onQuote: (quote) => quotes.push(quote), onState: (state) => states.push(state) });
      return { stream, quotes, states };
    }

    it('subscribes by difference and passes on quotes with the exchange time', async () => {
      const { stream, quotes } = open();
      const { unsupported } = stream.watch([
        { symbol: 'HDFCBANK', exchange: 'NSE' },
        { symbol: 'RELIANCE', exchange: 'BSE' },
        { symbol: 'NOSUCH', exchange: 'NSE' },
      ]);
      expect(unsupported).to.deep.equal([{ symbol: 'NOSUCH', exchange: 'NSE' }]);
      await waitFor('both subscribed', () => fake.subscribed().size === 2);
      stream.watch([
        { symbol: 'HDFCBANK', exchange: 'NSE' },
        { symbol: 'SBIN', exchange: 'NSE' },
      ]);
      await waitFor(
        'RELIANCE dropped, SBIN added',
        () => fake.subscribed().has('NSE_EQ|3045') && fake.subscribed().size === 2,
      );
      expect(fake.messages.map((m) => m.RequestCode)).to.deep.equal([15, 16, 15]);
      fake.tick('NSE_EQ|1333', 1500, lttAt('10:30:00'));
      const quote = await waitFor('a quote', () => quotes[0]);
      expect(quote).to.include({ symbol: 'HDFCBANK', exchange: 'NSE', ltp: 1500 });
      expect(new Date(quote.exchangeTime!).toISOString()).to.equal('2026-11-27T05:00:00.000Z');
      await stream.stop();
    });

    it('reconnects after the feed is killed and subscribes again', async () => {
      const { stream, quotes, states } = open();
      stream.watch([{ symbol: 'HDFCBANK', exchange: 'NSE' }]);
      await waitFor('subscribed', () => fake.subscribed().size === 1);
      await fake.kill();
      await waitFor('down', () => states.some((s) => s.state === 'down'));
      await fake.restart();
      await waitFor('subscribed again', () => fake.subscribed().size === 1, 10_000);
      fake.tick('NSE_EQ|1333', 1501.5, lttAt('10:31:00'));
      await waitFor('a quote after the restart', () => quotes.find((q) => q.ltp === 1501.5));
      expect(states.at(-1)).to.deep.equal({ state: 'live' });
      await stream.stop();
    });

    it('stops on an expired token (807) and comes back live with new credentials', async () => {
      const { stream, states } = open('expired');
      stream.watch([{ symbol: 'HDFCBANK', exchange: 'NSE' }]);
      const refused = await waitFor('refused', () => states.find((s) => s.state === 'auth_refused'));
      expect(refused).to.deep.equal({
        state: 'auth_refused',
        reason: 'disconnect 807: access token expired',
      });
      const attempts = fake.messages.length;
      stream.setCredentials({ accessToken: 'token-1', clientId: '1100000001' });
      await waitFor('subscribed with the new token', () => fake.subscribed().size === 1);
      expect(attempts).to.equal(0);
      expect(states.at(-1)).to.deep.equal({ state: 'live' });
      await stream.stop();
    });
  });
});
