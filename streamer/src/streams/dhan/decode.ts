/**
 * Dhan live market feed v2 binary packets (docs/live-prices.md#dhan), little-endian: an 8-byte
 * header (uint8 response code, uint16 message length, uint8 exchange segment, int32 security id),
 * then by code: 2 ticker (float32 LTP, int32 LTT), 4 quote (float32 LTP, int16 LTQ, int32 LTT, …),
 * 6 previous close (float32), 8 full (laid out as a quote up to the LTT), 50 disconnect (int16
 * reason). Prices are float32 rupees. One frame may hold several packets
 * back to back.
 */

/** Dhan's exchange segment numbers for equities. */
export const DHAN_SEGMENTS = { NSE_EQ: 1, BSE_EQ: 4 } as const;

export type DhanPacket =
  | { kind: 'price'; segment: number; securityId: number; ltp: number; ltt: number }
  | { kind: 'prev_close'; segment: number; securityId: number; prevClose: number }
  | { kind: 'disconnect'; reason: number }
  | { kind: 'skipped'; why: string };

const HEADER_BYTES = 8;
/** Bytes a packet needs, header included, by response code. */
const NEEDS: Record<number, number> = { 2: 16, 4: 50, 6: 16, 8: 162, 50: 10 };

/** Rounds a float32 price to paise (1500.05 arrives as 1500.0500488…). */
const rupees = (value: number) => Math.round(value * 100) / 100;

function readPacket(packet: Buffer): DhanPacket {
  const code = packet.readUInt8(0);
  const segment = packet.readUInt8(3);
  const securityId = packet.readInt32LE(4);
  const needs = NEEDS[code];
  if (needs === undefined) return { kind: 'skipped', why: `response code ${code} not read` };
  if (packet.length < needs)
    return { kind: 'skipped', why: `short packet: code ${code} needs ${needs} bytes, got ${packet.length}` };
  switch (code) {
    case 2:
      return {
        kind: 'price',
        segment,
        securityId,
        ltp: rupees(packet.readFloatLE(8)),
        ltt: packet.readInt32LE(12),
      };
    case 4:
    case 8:
      return {
        kind: 'price',
        segment,
        securityId,
        ltp: rupees(packet.readFloatLE(8)),
        ltt: packet.readInt32LE(14),
      };
    case 6:
      return { kind: 'prev_close', segment, securityId, prevClose: rupees(packet.readFloatLE(8)) };
    default:
      return { kind: 'disconnect', reason: packet.readInt16LE(8) };
  }
}

/** Reads every packet of one binary frame; never throws. */
export function decodeDhanFrame(frame: Buffer): DhanPacket[] {
  const packets: DhanPacket[] = [];
  let offset = 0;
  while (offset < frame.length) {
    if (frame.length - offset < HEADER_BYTES) {
      packets.push({ kind: 'skipped', why: `short header: ${frame.length - offset} bytes` });
      break;
    }
    // A known code has a fixed size; otherwise trust the header's length.
    const length = NEEDS[frame.readUInt8(offset)] ?? frame.readUInt16LE(offset + 1);
    const size = length >= HEADER_BYTES ? Math.min(length, frame.length - offset) : frame.length - offset;
    packets.push(readPacket(frame.subarray(offset, offset + size)));
    offset += size;
  }
  return packets;
}
