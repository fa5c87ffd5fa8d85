import { expect } from 'chai';
import {
  decodeKiteFrame,
  decodeKitePacket,
  KiteFrameError,
  parseKiteText,
  type KiteTick,
} from '../../../streamer/src/streams/kite/decode.ts';
import { parseKiteInstruments } from '../../../streamer/src/streams/kite/instruments.ts';
import {
  encodeKiteFrame,
  encodeKitePacket,
  type FakeKiteTick,
} from '../../helpers/fake-brokers/kite-ticker-frames.ts';
import { readShared, readSharedBytes, sharedDataPresent } from '../../helpers/shared-data.ts';
import { STAND_INS } from '../../helpers/stand-ins/index.ts';

const KITE = 'data/samples/kite';
const packetFile = (mode: string) => readSharedBytes(`${KITE}/kiteconnectjs_${mode}Mode_binary.packet`);

/** The kiteconnectjs vector's instrument (token 884737) as the fake scripts it. */
const vector: FakeKiteTick = {
  token: 884737,
  ltp: 392.95,
  lastQuantity: 2,
  averagePrice: 403.07,
  volume: 22261032,
  buyQuantity: 5617,
  sellQuantity: 0,
  open: 420,
  high: 420.9,
  low: 390.1,
  close: 414.1,
  lastTradeTime: 1655375264_000,
  exchangeTime: 1655378328_000,
  depth: { buy: [{ quantity: 5617, price: 392.95, orders: 30 }], sell: [] },
};

/** A mocks' ticker_*.json in the decoder's names (the older field names, times as IST text). */
function fromMocksJson(text: string): KiteTick {
  const j = JSON.parse(text) as Record<string, unknown> & { ohlc: KiteTick['ohlc'] };
  const time = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : undefined);
  const tick: KiteTick = {
    mode: j.mode as KiteTick['mode'],
    tradable: j.tradable as boolean,
    instrumentToken: j.instrument_token as number,
    lastPrice: j.last_price as number,
    lastQuantity: j.last_quantity as number,
    averagePrice: j.average_price as number,
    volume: j.volume as number,
    buyQuantity: j.buy_quantity as number,
    sellQuantity: j.sell_quantity as number,
    ohlc: j.ohlc,
  };
  if (j.mode === 'full')
    Object.assign(tick, {
      lastTradeTime: time(j.last_trade_time),
      oi: j.oi,
      oiDayHigh: j.oi_day_high,
      oiDayLow: j.oi_day_low,
      exchangeTime: time(j.timestamp),
      depth: j.depth,
    });
  return tick;
}

describe('Kite ticker frames', () => {
  it('decodes kiteconnectjs LTP packet: token 884737 at 392.95', () => {
    const [tick, ...rest] = decodeKiteFrame(packetFile('ltp'));
    expect(rest).to.have.length(0);
    expect(tick).to.deep.equal({ mode: 'ltp', tradable: true, instrumentToken: 884737, lastPrice: 392.95 });
  });

  it("decodes kiteconnectjs quote packet's fields", () => {
    const [tick] = decodeKiteFrame(packetFile('quote'));
    expect(tick).to.deep.include({
      mode: 'quote',
      instrumentToken: 884737,
      lastPrice: 392.95,
      lastQuantity: 2,
      averagePrice: 403.07,
      volume: 22261032,
      buyQuantity: 5617,
      sellQuantity: 0,
    });
    expect(tick?.ohlc).to.deep.equal({ open: 420, high: 420.9, low: 390.1, close: 414.1 });
    expect(tick?.exchangeTime).to.equal(undefined);
  });

  it("decodes kiteconnectjs full packet's times into epoch ms and its depth", () => {
    const [tick] = decodeKiteFrame(packetFile('full'));
    expect(tick?.mode).to.equal('full');
    expect(tick?.lastTradeTime).to.equal(Date.UTC(2022, 5, 16, 10, 27, 44));
    expect(tick?.exchangeTime).to.equal(Date.UTC(2022, 5, 16, 11, 18, 48));
    expect(tick?.depth?.buy[0]).to.deep.equal({ quantity: 5617, price: 392.95, orders: 30 });
    expect(tick?.depth?.sell).to.have.length(5);
  });

  for (const mode of ['quote', 'full'] as const)
    it(`decodes kiteconnect-mocks ticker_${mode}.packet as its ticker_${mode}.json says`, () => {
      const packet = Buffer.from(readShared(`${KITE}/ticker_${mode}.packet`).trim(), 'base64');
      expect(decodeKitePacket(packet)).to.deep.equal(
        fromMocksJson(readShared(`${KITE}/ticker_${mode}.json`)),
      );
    });

  it('reads several packets of mixed kinds in one frame, heartbeats as none', () => {
    const index = Buffer.alloc(32);
    index.writeUInt32BE(256265, 0); // NIFTY 50: segment 9, not tradable
    index.writeInt32BE(2_450_000, 4);
    index.writeInt32BE(1_700_000_000, 28);
    const currency = Buffer.alloc(8);
    currency.writeUInt32BE((412_001 << 8) | 3, 0); // a CDS token: price in 1e-7 rupees
    currency.writeInt32BE(832_512_500, 4);
    const frame = encodeKiteFrame([packetFile('ltp').subarray(4), index, currency]);
    const ticks = decodeKiteFrame(frame);
    expect(ticks.map((t) => t.lastPrice)).to.deep.equal([392.95, 24500, 83.25125]);
    expect(ticks[1]).to.deep.include({ tradable: false, mode: 'full', exchangeTime: 1_700_000_000_000 });
    expect(decodeKiteFrame(Buffer.from([0]))).to.deep.equal([]);
  });

  it('refuses a frame whose packet runs past its end, without throwing anything else', () => {
    expect(() => decodeKiteFrame(packetFile('quote').subarray(0, 30))).to.throw(KiteFrameError);
  });

  it('reads text frames: errors, order postbacks, and junk that must not crash', () => {
    expect(parseKiteText('{"type":"error","data":"Invalid access token"}')).to.deep.equal({
      type: 'error',
      message: 'Invalid access token',
    });
    expect(parseKiteText('{"type":"order","data":{"order_id":"1"}}')).to.deep.include({ type: 'order' });
    expect(parseKiteText('not json')).to.deep.include({ type: 'unreadable' });
    expect(parseKiteText('42')).to.deep.include({ type: 'unreadable' });
  });
});

describe("The Kite fake's frames", () => {
  for (const mode of ['ltp', 'quote', 'full'] as const)
    it(`encodes token 884737 at 392.95 in ${mode} mode byte for byte as kiteconnectjs's packet`, () => {
      expect(encodeKiteFrame([encodeKitePacket(vector, mode)]).equals(packetFile(mode))).to.equal(true);
    });
});

describe("Kite's instruments list", () => {
  const map = parseKiteInstruments(readShared(`${KITE}/instruments_all.csv`));

  it('finds NSE equities by trading symbol, falling back to the -BE series', () => {
    expect(map.tokenOf({ exchange: 'NSE', symbol: 'ADANIPORTS' })).to.equal(3861249);
    expect(map.tokenOf({ exchange: 'NSE', symbol: 'CENTRALBK' })).to.equal(3813889);
    expect(map.tokenOf({ exchange: 'NSE', symbol: 'NOSUCHCO' })).to.equal(undefined);
  });

  it('finds BSE equities by symbol or by scrip code (exchange_token), and skips derivatives', () => {
    expect(map.tokenOf({ exchange: 'BSE', symbol: 'FFTF16BGR' })).to.equal(136483588);
    expect(map.tokenOf({ exchange: 'BSE', symbol: '533139' })).to.equal(136483588);
    expect(map.tokenOf({ exchange: 'BSE', symbol: 'FORTIS', scripCode: '533139' })).to.equal(136483588);
    expect(map.tokenOf({ exchange: 'NSE', symbol: 'BANKNIFTY18JAN23500CE' })).to.equal(undefined);
    expect(map.tokenOf({ exchange: 'NSE', symbol: 'FFTF16BGR' })).to.equal(undefined);
  });
});

// Defined only where ../shared is (CI): without it the run's one line says the real files were not read.
if (sharedDataPresent) {
  describe('the Kite ticker stand-ins against the real samples of ../shared', () => {
    const standIn = (file: string) => Buffer.from(STAND_INS[`${KITE}/${file}`]!.write());
    const real = (file: string) => readSharedBytes(`${KITE}/${file}`);
    const json = (bytes: Buffer) => {
      const { change: _change, ...rest } = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      return rest;
    };

    it("hold the kiteconnectjs packets byte for byte, and the mocks' packets and ticks", () => {
      for (const mode of ['ltp', 'quote', 'full'])
        expect(standIn(`kiteconnectjs_${mode}Mode_binary.packet`)).to.deep.equal(
          real(`kiteconnectjs_${mode}Mode_binary.packet`),
        );
      for (const mode of ['quote', 'full']) {
        expect(standIn(`ticker_${mode}.packet`).toString().trim()).to.equal(
          real(`ticker_${mode}.packet`).toString().trim(),
        );
        expect(json(standIn(`ticker_${mode}.json`))).to.deep.equal(json(real(`ticker_${mode}.json`)));
      }
    });

    it("hold rows of the mocks' instruments list, as they are", () => {
      const rows = real('instruments_all.csv').toString('utf8').split('\r\n');
      for (const row of standIn('instruments_all.csv').toString('utf8').split('\r\n'))
        if (row !== '') expect(rows).to.include(row);
    });
  });
}
