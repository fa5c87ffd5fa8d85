/**
 * The Kite ticker fake's encoder: packets laid out as Kite sends them (big-endian int32 fields,
 * prices in paise), framed with an int16 count and int16 lengths. Written from Kite's documented
 * layout, not from the product's decoder; test/streamer/streams/kite-decode.test.ts checks its
 * frames byte for byte against zerodha/kiteconnectjs `test/*_binary.packet`.
 */

export type Mode = 'ltp' | 'quote' | 'full';

const PACKET_LENGTH: Record<Mode, number> = { ltp: 8, quote: 44, full: 184 };
/** Units per rupee by segment (the token's low byte): CDS 3 and BCD 6 are finer than paise. */
const divisorOf = (token: number) => ({ 3: 1e7, 6: 1e4 })[token & 0xff] ?? 100;

/** One instrument's market state, prices in rupees, times in epoch ms. */
export interface FakeKiteTick {
  token: number;
  ltp: number;
  lastQuantity?: number;
  averagePrice?: number;
  volume?: number;
  buyQuantity?: number;
  sellQuantity?: number;
  open?: number;
  high?: number;
  low?: number;
  close?: number;
  lastTradeTime?: number;
  oi?: number;
  oiDayHigh?: number;
  oiDayLow?: number;
  exchangeTime?: number;
  depth?: { buy: FakeDepth[]; sell: FakeDepth[] };
}
interface FakeDepth {
  price: number;
  quantity: number;
  orders: number;
}

/** One packet of `mode` for `tick`, as Kite lays it out. */
export function encodeKitePacket(tick: FakeKiteTick, mode: Mode): Buffer {
  const packet = Buffer.alloc(PACKET_LENGTH[mode]);
  const divisor = divisorOf(tick.token);
  const paise = (rupees = 0) => Math.round(rupees * divisor);
  const seconds = (ms = 0) => Math.floor(ms / 1000);
  packet.writeUInt32BE(tick.token, 0);
  packet.writeInt32BE(paise(tick.ltp), 4);
  if (mode === 'ltp') return packet;
  const ints = [
    tick.lastQuantity,
    paise(tick.averagePrice),
    tick.volume,
    tick.buyQuantity,
    tick.sellQuantity,
  ];
  const prices = [tick.open, tick.high, tick.low, tick.close].map(paise);
  [...ints, ...prices].forEach((value, i) => packet.writeInt32BE(value ?? 0, 8 + i * 4));
  if (mode === 'quote') return packet;
  const times = [
    seconds(tick.lastTradeTime),
    tick.oi,
    tick.oiDayHigh,
    tick.oiDayLow,
    seconds(tick.exchangeTime),
  ];
  times.forEach((value, i) => packet.writeInt32BE(value ?? 0, 44 + i * 4));
  // Five bids from byte 64, five asks from byte 124: int32 quantity, int32 price, int16 orders, 2 spare.
  const side = (levels: FakeDepth[] = [], from: number) =>
    levels.slice(0, 5).forEach((level, i) => {
      packet.writeInt32BE(level.quantity, from + i * 12);
      packet.writeInt32BE(paise(level.price), from + i * 12 + 4);
      packet.writeInt16BE(level.orders, from + i * 12 + 8);
    });
  side(tick.depth?.buy, 64);
  side(tick.depth?.sell, 124);
  return packet;
}

/** A binary frame: the packet count, then each packet behind its length. */
export function encodeKiteFrame(packets: Buffer[]): Buffer {
  const head = Buffer.alloc(2);
  head.writeUInt16BE(packets.length, 0);
  return Buffer.concat([head, ...packets.flatMap((p) => [Buffer.from([p.length >> 8, p.length & 0xff]), p])]);
}
