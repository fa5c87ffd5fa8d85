/**
 * Hostile values for the fuzz suite (fast-check), in the classes the attacker's fuzzing found
 * 500s with: control characters, numbers from 1e-20 to 1e308 (as numbers and as text, hex and
 * exponents included), dates far in the past and future, and deep or wide JSON.
 */
import fc from 'fast-check';

/** The C0 controls and DEL, tab and line breaks included (those must pass where text allows). */
const CONTROLS = [...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)), '\u007f'];

/** Text with a control character somewhere in it. */
export const controlText = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...CONTROLS), fc.string({ maxLength: 8 }))
  .map(([before, control, after]) => `${before}${control}${after}`);

/** Numbers across the whole positive range, with the columns' edges (10^14, 10^-4) close by. */
export const hostileNumber = fc.oneof(
  fc.double({ min: 1e-20, max: 1e308, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    1e14,
    99_999_999_999_999.98,
    1e14 - 0.001,
    1e15,
    1e21,
    1e308,
    0.0001,
    0.00009,
    0.00001,
    1e-20,
    5e-324,
  ),
  fc.integer({ min: -20, max: 308 }).map((exponent) => 10 ** exponent),
);

/** Numbers written as text: plain, hex, binary, octal, exponents, Infinity, NaN, padded. */
export const hostileNumberText = fc.oneof(
  hostileNumber.map(String),
  hostileNumber.map((n) => n.toFixed(20)),
  fc.constantFrom(
    '0x10',
    '0X1F',
    '0b11',
    '0o17',
    '1e3',
    '1E14',
    '1e-20',
    'Infinity',
    '-Infinity',
    'NaN',
    ' 12 ',
    '0.00000000000000000001',
    '100000000000000',
    '1,00,00,00,00,00,000',
  ),
);

/** Dates far in the past and future, as ISO text, bare years and epoch numbers. */
export const hostileDate = fc.oneof(
  fc.integer({ min: -300_000, max: 300_000 }).map(String),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.integer({ min: -8.64e15, max: 8.64e15 }).map(String),
  fc.constantFrom(
    '99999',
    '+275760-09-13T00:00:00.000Z',
    '-271821-04-20T00:00:00.000Z',
    '0000-01-01',
    '9999-12-31',
  ),
);

/** A value nested `depth` levels deep in arrays or objects; written out by {@link toJsonText}. */
export class Deep {
  constructor(
    readonly depth: number,
    readonly leaf: unknown,
    readonly asArray: boolean,
  ) {}

  /** As JSON text, built without recursion (JSON.stringify overflows the stack on deep values). */
  text(): string {
    const [open, close] = this.asArray ? ['[', ']'] : ['{"a":', '}'];
    return `${open.repeat(this.depth)}${JSON.stringify(this.leaf)}${close.repeat(this.depth)}`;
  }
}

/** JSON text of a fuzzed body, with its {@link Deep} parts written out in place. */
export function toJsonText(value: unknown): string {
  const deep: Deep[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof Deep)) return v;
    deep.push(v);
    return `@@deep-${deep.length - 1}@@`;
  });
  return text.replace(/"@@deep-(\d+)@@"/g, (_, i: string) => deep[Number(i)]!.text());
}

/** Deep (up to 20,000 levels) and wide (up to 5,000 keys or items) JSON around a hostile leaf. */
export const deepOrWide = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 20_000 }), fc.oneof(controlText, hostileNumber), fc.boolean())
    .map(([depth, leaf, asArray]) => new Deep(depth, leaf, asArray)),
  fc
    .tuple(fc.integer({ min: 1, max: 5_000 }), fc.oneof(controlText, hostileNumber))
    .map(([width, leaf]) =>
      Object.fromEntries(Array.from({ length: width }, (_, i) => [`k${i}`, i ? 1 : leaf])),
    ),
  fc.integer({ min: 1, max: 5_000 }).map((width) => Array.from({ length: width }, () => 'x')),
);

/** Any one of the hostile classes, or small arbitrary JSON. */
export const hostileValue = fc.oneof(
  controlText,
  hostileNumber,
  hostileNumberText,
  hostileDate,
  deepOrWide,
  fc.jsonValue({ maxDepth: 2 }),
);

/** Text for a query value or path parameter: control characters, number text, dates. */
export const hostileText = fc.oneof(
  controlText,
  hostileNumberText,
  hostileDate,
  fc.string({ maxLength: 12 }),
);
