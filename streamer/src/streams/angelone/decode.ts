/**
 * Angel One SmartWebSocket 2.0 binary packets (docs/live-prices.md#angel-one), little-endian:
 * byte 0 subscription mode, 1 exchange type, 2–26 token (ASCII, NUL-padded), 27 int64 sequence
 * number, 35 int64 exchange timestamp (epoch ms), 43 int64 last traded price in paise. An LTP
 * packet ends there (51 bytes); Quote (123) and SnapQuote (379) continue, with the previous close
 * at 115 (int64 paise). Prices are divided by 100 (equity segments only are subscribed).
 */

/** Packet sizes by subscription mode: 1 LTP, 2 Quote, 3 SnapQuote. */
const PACKET_BYTES: Record<number, number> = { 1: 51, 2: 123, 3: 379 };

/** One price packet as read. */
export interface AngelTick {
  exchangeType: number;
  token: string;
  ltp: number;
  exchangeTime: number;
  /** Quote and SnapQuote modes only. */
  prevClose?: number;
}

/** What a frame was: a price, or something to report and skip. */
export type AngelReading = { tick: AngelTick } | { skipped: string };

/** Reads one binary frame; never throws. */
export function decodeAngelPacket(frame: Buffer): AngelReading {
  if (frame.length < 1) return { skipped: 'empty frame' };
  const mode = frame.readUInt8(0);
  const size = PACKET_BYTES[mode];
  if (size === undefined) return { skipped: `unknown subscription mode ${mode}` };
  if (frame.length < size)
    return { skipped: `short packet: mode ${mode} needs ${size} bytes, got ${frame.length}` };
  const tokenBytes = frame.subarray(2, 27);
  const end = tokenBytes.indexOf(0);
  const token = tokenBytes.subarray(0, end === -1 ? tokenBytes.length : end).toString('ascii');
  const tick: AngelTick = {
    exchangeType: frame.readUInt8(1),
    token,
    exchangeTime: Number(frame.readBigInt64LE(35)),
    ltp: Number(frame.readBigInt64LE(43)) / 100,
  };
  if (mode >= 2) tick.prevClose = Number(frame.readBigInt64LE(115)) / 100;
  return { tick };
}
