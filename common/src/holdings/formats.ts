/**
 * Broker holdings export layouts, recognised by their header row. Header names are compared after
 * {@link normaliseHeader}: case-insensitive, trimmed, dots and underscores read as spaces.
 */

export type BrokerFormatId =
  'zerodha_kite' | 'zerodha_console' | 'groww' | 'dhan' | 'icici_direct' | 'angel_one' | 'upstox' | 'generic';

/** Alternative header names for one column; the first present wins. */
type Aliases = readonly string[];

/** Where each field of a holding sits in a layout. */
export interface ColumnLayout {
  /** A trading symbol the exchanges know (absent when the broker uses its own codes). */
  symbol?: Aliases;
  companyName?: Aliases;
  isin?: Aliases;
  exchange?: Aliases;
  /** Quantity columns; all present are summed (Console splits free and pledged quantity). */
  quantity: readonly Aliases[];
  averagePrice: Aliases;
}

export interface BrokerFormat {
  id: BrokerFormatId;
  displayName: string;
  /** Headers that must all be present for the layout to be recognised. */
  signature: readonly string[];
  /** Headers whose presence rules the layout out. */
  excludes?: readonly string[];
  columns: ColumnLayout;
}

export const GENERIC_SYMBOL: Aliases = ['symbol', 'instrument', 'scrip', 'trading symbol', 'tradingsymbol'];
export const GENERIC_QUANTITY: Aliases = ['quantity', 'qty'];
export const GENERIC_PRICE: Aliases = ['buy price', 'average price', 'avg price', 'avg cost'];
const NAME: Aliases = ['company name', 'name', 'stock name'];
const ISIN: Aliases = ['isin', 'isin code', 'isin no'];
const EXCHANGE: Aliases = ['exchange'];

/** The spec's own template: Symbol, Quantity, Buy Price and an optional Exchange. */
const GENERIC_FORMAT: BrokerFormat = {
  id: 'generic',
  displayName: 'Generic CSV',
  signature: [],
  columns: {
    symbol: GENERIC_SYMBOL,
    companyName: NAME,
    isin: ISIN,
    exchange: EXCHANGE,
    quantity: [GENERIC_QUANTITY],
    averagePrice: GENERIC_PRICE,
  },
};

/** Recognised layouts, most specific first; `generic` (the spec's template) is the fallback. */
export const BROKER_FORMATS: readonly BrokerFormat[] = [
  {
    id: 'zerodha_kite',
    displayName: 'Zerodha (Kite)',
    signature: ['instrument', 'qty', 'avg cost', 'ltp'],
    columns: { symbol: ['instrument'], exchange: EXCHANGE, quantity: [['qty']], averagePrice: ['avg cost'] },
  },
  {
    id: 'zerodha_console',
    displayName: 'Zerodha (Console)',
    signature: ['symbol', 'isin', 'quantity available', 'average price'],
    columns: {
      symbol: ['symbol'],
      isin: ['isin'],
      quantity: [['quantity available'], ['quantity pledged (margin)'], ['quantity pledged (loan)']],
      averagePrice: ['average price'],
    },
  },
  {
    id: 'groww',
    displayName: 'Groww',
    signature: ['stock name', 'isin', 'quantity', 'average buy price'],
    columns: {
      companyName: ['stock name'],
      isin: ['isin'],
      quantity: [['quantity']],
      averagePrice: ['average buy price'],
    },
  },
  {
    id: 'icici_direct',
    displayName: 'ICICI Direct',
    signature: ['stock symbol', 'isin code', 'qty', 'average cost price'],
    columns: {
      companyName: ['company name'],
      isin: ['isin code'],
      exchange: EXCHANGE,
      quantity: [['qty']],
      averagePrice: ['average cost price'],
    },
  },
  {
    id: 'angel_one',
    displayName: 'Angel One',
    signature: ['scrip/contract', 'quantity', 'avg trading price'],
    columns: {
      symbol: ['scrip/contract'],
      companyName: ['company name'],
      isin: ['isin'],
      exchange: EXCHANGE,
      quantity: [['quantity']],
      averagePrice: ['avg trading price'],
    },
  },
  {
    id: 'upstox',
    displayName: 'Upstox',
    signature: ['symbol', 'net qty', 'avg price'],
    columns: {
      symbol: ['symbol'],
      companyName: NAME,
      isin: ISIN,
      exchange: EXCHANGE,
      quantity: [['net qty']],
      averagePrice: ['avg price'],
    },
  },
  {
    id: 'dhan',
    displayName: 'Dhan',
    signature: ['name', 'quantity', 'avg price'],
    excludes: GENERIC_SYMBOL,
    columns: { companyName: ['name'], isin: ISIN, quantity: [['quantity']], averagePrice: ['avg price'] },
  },
  GENERIC_FORMAT,
];

/** Header names that identify a holding (symbol, company name or ISIN) in any layout. */
const IDENTITY_HEADERS = new Set([...GENERIC_SYMBOL, ...NAME, ...ISIN, 'stock symbol', 'scrip/contract']);
const QUANTITY_HEADERS = new Set([...GENERIC_QUANTITY, 'quantity available', 'net qty']);

/**
 * Normalises a header cell: lower case, dots and underscores as spaces, single spaces, and a
 * trailing count such as Upstox's `Symbol (12)` dropped. `Avg. cost` → `avg cost`.
 */
export function normaliseHeader(cell: string): string {
  return cell
    .toLowerCase()
    .replace(/[._]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*\((\d+|[a-z])\)$/, '');
}

/** True when a row (already normalised) has a symbol/name column and a quantity column. */
export function looksLikeHeaderRow(headers: readonly string[]): boolean {
  return headers.some((h) => IDENTITY_HEADERS.has(h)) && headers.some((h) => QUANTITY_HEADERS.has(h));
}

/** Picks the layout whose signature the header row carries; `generic` when none does. */
export function detectBrokerFormat(headers: readonly string[]): BrokerFormat {
  const present = new Set(headers);
  const matches = (format: BrokerFormat): boolean =>
    format.signature.length > 0 &&
    format.signature.every((header) => present.has(header)) &&
    !(format.excludes ?? []).some((header) => present.has(header));
  return BROKER_FORMATS.find(matches) ?? GENERIC_FORMAT;
}

/** The display name of a layout, e.g. `Zerodha (Kite)`. */
export function brokerFormatName(id: BrokerFormatId): string {
  return BROKER_FORMATS.find((format) => format.id === id)?.displayName ?? id;
}
