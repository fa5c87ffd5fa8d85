/**
 * Kite Connect's ticker frames (docs/live-prices.md). Binary frames are big-endian: an int16
 * packet count, then for each packet an int16 length and the packet. A packet's length says its
 * mode: 8 LTP, 28 index quote, 32 index full, 44 quote, 184 full. Prices are integers in paise
 * (currency segments in smaller units, by the token's low byte). A 1-byte frame is a heartbeat.
 * Text frames are JSON: `{"type":"error","data":"…"}`, order postbacks, broker messages.
 */

/** One level of market depth. */
export interface KiteDepthLevel {
  price: number;
  quantity: number;
  orders: number;
}

/** One decoded packet, prices in rupees, times in epoch ms. */
export interface KiteTick {
  mode: 'ltp' | 'quote' | 'full';
  /** Indices (segment 9) are not tradable. */
  tradable: boolean;
  instrumentToken: number;
  lastPrice: number;
  lastQuantity?: number;
  averagePrice?: number;
  volume?: number;
  buyQuantity?: number;
  sellQuantity?: number;
  ohlc?: { open: number; high: number; low: number; close: number };
  lastTradeTime?: number;
  oi?: number;
  oiDayHigh?: number;
  oiDayLow?: number;
  /** The exchange's time of the snapshot (full and index full modes). */
  exchangeTime?: number;
  depth?: { buy: KiteDepthLevel[]; sell: KiteDepthLevel[] };
}

/** A text frame, by its `type`. */
export type KiteTextMessage =
  | { type: 'error'; message: string }
  | { type: 'order' | 'message'; data: unknown }
  | { type: 'unreadable'; text: string };

/** Kite's segments, from the low byte of an instrument token. */
export const KITE_SEGMENT = { NSE: 1, NFO: 2, CDS: 3, BSE: 4, BFO: 5, BCD: 6, MCX: 7, MCXSX: 8, INDICES: 9 };

/** How many integer units make one rupee for a token's segment. */
export function priceDivisor(instrumentToken: number): number {
  const segment = instrumentToken & 0xff;
  if (segment === KITE_SEGMENT.CDS) return 1e7;
  if (segment === KITE_SEGMENT.BCD) return 1e4;
  return 100;
}

/** The packet lengths Kite sends, by mode. */
const PACKET_LENGTH = { ltp: 8, indexQuote: 28, indexFull: 32, quote: 44, full: 184 } as const;

/** A frame that does not follow the framing (a truncated packet); its whole packets are kept. */
export class KiteFrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KiteFrameError';
  }
}

/**
 * The packets of a binary frame. A heartbeat (1 byte, or anything of 2 bytes or fewer, as the SDKs
 * treat it) has none; a packet of an unknown length is skipped. Throws `KiteFrameError` when a
 * length runs past the frame's end.
 */
export function decodeKiteFrame(frame: Buffer): KiteTick[] {
  if (frame.length <= 2) return [];
  const count = frame.readUInt16BE(0);
  const ticks: KiteTick[] = [];
  let offset = 2;
  for (let i = 0; i < count; i++) {
    if (offset + 2 > frame.length) throw new KiteFrameError(`frame ends before packet ${i + 1} of ${count}`);
    const length = frame.readUInt16BE(offset);
    offset += 2;
    if (offset + length > frame.length)
      throw new KiteFrameError(`packet ${i + 1} of ${count} claims ${length} bytes past the frame's end`);
    const tick = decodeKitePacket(frame.subarray(offset, offset + length));
    if (tick) ticks.push(tick);
    offset += length;
  }
  return ticks;
}

/** One packet (no framing), or undefined for a length Kite does not define. */
export function decodeKitePacket(packet: Buffer): KiteTick | undefined {
  if (packet.length < PACKET_LENGTH.ltp) return undefined;
  const instrumentToken = packet.readUInt32BE(0);
  const divisor = priceDivisor(instrumentToken);
  const int = (at: number) => packet.readInt32BE(at);
  const price = (at: number) => int(at) / divisor;
  const seconds = (at: number) => int(at) * 1000;
  const tradable = (instrumentToken & 0xff) !== KITE_SEGMENT.INDICES;
  const lastPrice = price(4);

  switch (packet.length) {
    case PACKET_LENGTH.ltp:
      return { mode: 'ltp', tradable, instrumentToken, lastPrice };
    case PACKET_LENGTH.indexQuote:
    case PACKET_LENGTH.indexFull: {
      const ohlc = { high: price(8), low: price(12), open: price(16), close: price(20) };
      const tick: KiteTick = { mode: 'quote', tradable, instrumentToken, lastPrice, ohlc };
      if (packet.length === PACKET_LENGTH.indexFull) {
        tick.mode = 'full';
        tick.exchangeTime = seconds(28);
      }
      return tick;
    }
    case PACKET_LENGTH.quote:
    case PACKET_LENGTH.full: {
      const tick: KiteTick = {
        mode: 'quote',
        tradable,
        instrumentToken,
        lastPrice,
        lastQuantity: int(8),
        averagePrice: price(12),
        volume: int(16),
        buyQuantity: int(20),
        sellQuantity: int(24),
        ohlc: { open: price(28), high: price(32), low: price(36), close: price(40) },
      };
      if (packet.length === PACKET_LENGTH.full) {
        tick.mode = 'full';
        tick.lastTradeTime = seconds(44);
        tick.oi = int(48);
        tick.oiDayHigh = int(52);
        tick.oiDayLow = int(56);
        tick.exchangeTime = seconds(60);
        tick.depth = { buy: depthLevels(packet, 64, divisor), sell: depthLevels(packet, 124, divisor) };
      }
      return tick;
    }
    default:
      return undefined;
  }
}

/** Five levels of 12 bytes: int32 quantity, int32 price, int16 orders, 2 bytes of padding. */
function depthLevels(packet: Buffer, from: number, divisor: number): KiteDepthLevel[] {
  const levels: KiteDepthLevel[] = [];
  for (let at = from; at < from + 60; at += 12)
    levels.push({
      quantity: packet.readInt32BE(at),
      price: packet.readInt32BE(at + 4) / divisor,
      orders: packet.readInt16BE(at + 8),
    });
  return levels;
}

/** A text frame: always JSON from Kite; anything else is reported as unreadable, never thrown. */
export function parseKiteText(text: string): KiteTextMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { type: 'unreadable', text: text.slice(0, 200) };
  }
  if (typeof parsed !== 'object' || parsed === null) return { type: 'unreadable', text: text.slice(0, 200) };
  const { type, data } = parsed as { type?: unknown; data?: unknown };
  if (type === 'error')
    return { type: 'error', message: typeof data === 'string' ? data : JSON.stringify(data) };
  if (type === 'order' || type === 'message') return { type, data };
  return { type: 'unreadable', text: text.slice(0, 200) };
}
