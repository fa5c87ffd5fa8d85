import { expect } from 'chai';
import { captureLog } from '../../helpers/log.ts';
import { waitFor } from '../../helpers/wait.ts';
import {
  angelLtpPacket,
  startFakeAngelFeed,
  type FakeAngelFeed,
} from '../../helpers/fake-brokers/angelone-feed.ts';
import { decodeAngelPacket } from '../../../streamer/src/streams/angelone/decode.ts';
import { angelTokensFromScripMaster } from '../../../streamer/src/streams/angelone/scrip-master.ts';
import { createAngelOneStream } from '../../../streamer/src/streams/angelone/stream.ts';
import type { StreamQuote, StreamState } from '../../../streamer/src/streams/types.ts';

const at = Date.parse('2026-11-27T04:45:12.345Z');

describe('Angel One SmartStream 2.0', () => {
  describe('decoding', () => {
    it('reads a 51-byte LTP packet: little-endian int64 paise and the exchange time in ms', () => {
      // Above 2^31 paise: the SDK's int32 read would get this wrong.
      const packet = angelLtpPacket(1, '3045', 2_500_000_005n, at, 77n);
      expect(packet.readUInt8(0)).to.equal(1);
      expect(decodeAngelPacket(packet)).to.deep.equal({
        tick: { exchangeType: 1, token: '3045', exchangeTime: at, ltp: 25_000_000.05 },
      });
    });

    it('reads the previous close of a 123-byte Quote packet at offset 115', () => {
      const packet = Buffer.alloc(123);
      angelLtpPacket(3, '500325', 130_015n, at).copy(packet);
      packet.writeUInt8(2, 0);
      packet.writeBigInt64LE(129_600n, 115);
      expect(decodeAngelPacket(packet)).to.deep.equal({
        tick: { exchangeType: 3, token: '500325', exchangeTime: at, ltp: 1300.15, prevClose: 1296 },
      });
    });

    it('reports short packets and unknown modes instead of failing', () => {
      expect(decodeAngelPacket(angelLtpPacket(1, '3045', 1n, at).subarray(0, 50))).to.deep.equal({
        skipped: 'short packet: mode 1 needs 51 bytes, got 50',
      });
      expect(decodeAngelPacket(Buffer.from([4, 1, 0]))).to.deep.equal({
        skipped: 'unknown subscription mode 4',
      });
      expect(decodeAngelPacket(Buffer.alloc(0))).to.deep.equal({ skipped: 'empty frame' });
    });

    it('loads tokens from OpenAPIScripMaster.json rows, equities only', () => {
      const rows = [
        {
          token: '3045',
          symbol: 'SBIN-EQ',
          name: 'SBIN',
          expiry: '',
          strike: '-1.000000',
          lotsize: '1',
          instrumenttype: '',
          exch_seg: 'NSE',
          tick_size: '5.000000',
        },
        {
          token: '500112',
          symbol: 'SBIN',
          name: 'SBIN',
          expiry: '',
          strike: '-1.000000',
          lotsize: '1',
          instrumenttype: '',
          exch_seg: 'BSE',
          tick_size: '5.000000',
        },
        {
          token: '99926000',
          symbol: 'Nifty 50',
          name: 'NIFTY',
          expiry: '',
          strike: '-1.000000',
          lotsize: '1',
          instrumenttype: 'AMXIDX',
          exch_seg: 'NSE',
          tick_size: '0.000000',
        },
        {
          token: '35001',
          symbol: 'SBIN26NOVFUT',
          name: 'SBIN',
          expiry: '26NOV2026',
          strike: '-1.000000',
          lotsize: '750',
          instrumenttype: 'FUTSTK',
          exch_seg: 'NFO',
          tick_size: '5.000000',
        },
      ];
      expect([...angelTokensFromScripMaster(JSON.stringify(rows))]).to.deep.equal([
        ['NSE:SBIN', '3045'],
        ['BSE:SBIN', '500112'],
      ]);
    });
  });

  describe('the stream against the fake feed', () => {
    let fake: FakeAngelFeed;
    const tokens = new Map([
      ['NSE:SBIN', '3045'],
      ['BSE:RELIANCE', '500325'],
    ]);
    beforeEach(async () => (fake = await startFakeAngelFeed()));
    afterEach(() => fake.close());

    function open(authToken = fake.valid.jwt) {
      const quotes: StreamQuote[] = [];
      const states: StreamState[] = [];
      const stream = createAngelOneStream({
        urls: { ws: fake.url },
        credentials: { accessToken: fake.valid.feedToken, clientId: fake.valid.clientCode, authToken },
        apiKey: fake.valid.apiKey,
        tokens,
        log: captureLog().log,
        timings: { watchdogMs: 1000, backoffBaseMs: 50, backoffMaxMs: 200 },
        pingEveryMs: 100,
      });
      stream.start({ onQuote: (quote) => quotes.push(quote), onState: (state) => states.push(state) });
      return { stream, quotes, states };
    }

    it('subscribes by difference, pings, and passes on quotes in rupees with the exchange time', async () => {
      const { stream, quotes } = open();
      stream.watch([
        { symbol: 'SBIN', exchange: 'NSE' },
        { symbol: 'RELIANCE', exchange: 'BSE' },
      ]);
      await waitFor('both subscribed', () => fake.subscribed().size === 2);
      stream.watch([{ symbol: 'RELIANCE', exchange: 'BSE' }]);
      await waitFor(
        'SBIN dropped',
        () => !fake.subscribed().has('1|3045') && fake.subscribed().has('3|500325'),
      );
      fake.tick(3, '500325', 130_015n, at);
      const quote = await waitFor('a quote', () => quotes[0]);
      expect(quote).to.include({ symbol: 'RELIANCE', exchange: 'BSE', ltp: 1300.15, exchangeTime: at });
      await waitFor('a text ping answered', () => fake.pings > 0);
      await stream.stop();
    });

    it('reconnects after the feed is killed and subscribes again', async () => {
      const { stream, quotes, states } = open();
      stream.watch([{ symbol: 'SBIN', exchange: 'NSE' }]);
      await waitFor('subscribed', () => fake.subscribed().size === 1);
      await fake.kill();
      await waitFor('down', () => states.some((s) => s.state === 'down'));
      await fake.restart();
      await waitFor('subscribed again', () => fake.subscribed().size === 1, 10_000);
      fake.tick(1, '3045', 81_250n, at);
      await waitFor('a quote after the restart', () => quotes.find((q) => q.ltp === 812.5));
      await stream.stop();
    });

    it("stops on the upgrade's 401 and comes back live with new credentials", async () => {
      const { stream, states } = open('stale-jwt');
      stream.watch([{ symbol: 'SBIN', exchange: 'NSE' }]);
      const refused = await waitFor('refused', () => states.find((s) => s.state === 'auth_refused'));
      expect(refused).to.deep.equal({
        state: 'auth_refused',
        reason: 'HTTP 401 on connect: Invalid Header - Invalid Auth token|Client Code|API Key|Feed Token',
      });
      stream.setCredentials({
        accessToken: fake.valid.feedToken,
        clientId: fake.valid.clientCode,
        authToken: fake.valid.jwt,
      });
      await waitFor('subscribed with the new token', () => fake.subscribed().size === 1);
      expect(states.at(-1)).to.deep.equal({ state: 'live' });
      await stream.stop();
    });
  });
});
