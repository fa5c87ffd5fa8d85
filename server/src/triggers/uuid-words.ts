/**
 * Rule and alert ids (UUIDs) as four 32-bit words: 16 bytes in a typed array instead of a
 * 36-character string each, hashed for the id table, and printed back only when an entry leaves
 * the index.
 */
/** The value of a lower-case hex digit's char code, or -1. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) HEX_VALUE['0123456789abcdef'.charCodeAt(d)] = d;
/** Where each of the 32 hex digits sits in `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. */
const DIGIT_AT = Array.from(
  { length: 32 },
  (_, k) => k + (k >= 8 ? 1 : 0) + (k >= 12 ? 1 : 0) + (k >= 16 ? 1 : 0) + (k >= 20 ? 1 : 0),
);

/** Parses a canonical (lower-case) UUID into `out` as four 32-bit words; throws on anything else. */
export function parseUuid(id: string, out: Uint32Array): Uint32Array {
  if (
    id.length !== 36 ||
    id.charCodeAt(8) !== 45 ||
    id.charCodeAt(13) !== 45 ||
    id.charCodeAt(18) !== 45 ||
    id.charCodeAt(23) !== 45
  )
    throw new Error(`not a canonical UUID: ${id}`);
  for (let w = 0; w < 4; w++) {
    let word = 0;
    for (let k = 8 * w; k < 8 * w + 8; k++) {
      const digit = HEX_VALUE[id.charCodeAt(DIGIT_AT[k]!) & 127]!;
      if (digit < 0 || id.charCodeAt(DIGIT_AT[k]!) > 127) throw new Error(`not a canonical UUID: ${id}`);
      word = (word << 4) | digit;
    }
    out[w] = word >>> 0;
  }
  return out;
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** Where each of the 16 bytes' two hex digits go in `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. */
const BYTE_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const uuidText = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1');

/** The canonical text of four 32-bit words, written into one buffer: a flat string, fast. */
export function formatUuid(ids: Uint32Array, offset: number): string {
  for (let k = 0; k < 16; k++) {
    const byte = (ids[offset + (k >> 2)]! >>> (24 - 8 * (k & 3))) & 255;
    const at = BYTE_AT[k]!;
    uuidText[at] = HEX_DIGITS[byte >> 4]!;
    uuidText[at + 1] = HEX_DIGITS[byte & 15]!;
  }
  return uuidText.toString('latin1');
}

export function hashWords(w: ArrayLike<number>, o: number): number {
  let h =
    w[o]! ^
    Math.imul(w[o + 1]!, 0x9e3779b1) ^
    Math.imul(w[o + 2]!, 0x85ebca6b) ^
    Math.imul(w[o + 3]!, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}
