/**
 * Broker holdings export layouts, recognised by their header row. Header names are compared after
 * {@link normaliseHeader}: case-insensitive, trimmed, dots and underscores read as spaces.
 */

export type BrokerFormatId =
  | 'zerodha_kite'
  | 'zerodha_console'
  | 'groww'
  | 'hdfc_securities'
  | 'dhan'
  | 'icici_direct'
  | 'angel_one'
  | 'upstox'
  | 'five_paisa'
  | 'kotak_neo'
  | 'depository_statement'
  | 'mutual_fund'
  | 'generic';

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

/** One header of a signature, or a group of alternative spellings of which one must be present. */
type SignatureHeader = string | Aliases;

/** What else, besides its headers, tells a layout from another with the same header row. */
export interface LayoutMarks {
  /** Normalised preamble cells that start with one of these (Groww's `Unique Client Code`). */
  preamble: readonly string[];
  /** Header cells as the broker spells them, case and all (Groww's `Average buy price`). */
  exactHeaders: readonly string[];
}

export interface BrokerFormat {
  id: BrokerFormatId;
  displayName: string;
  /** Headers that must all be present for the layout to be recognised. */
  signature: readonly SignatureHeader[];
  /** Headers whose presence rules the layout out. */
  excludes?: readonly string[];
  /** When set, the layout is recognised only if one of these marks is in the file too. */
  marks?: LayoutMarks;
  /** A statement the product cannot import: the sentence that says why and what to use instead. */
  refusal?: string;
  columns: ColumnLayout;
}

/** The header row and what came before it, as {@link detectBrokerFormat} reads them. */
export interface DetectionInput {
  /** Header cells after {@link normaliseHeader}. */
  headers: readonly string[];
  /** Header cells as written (trimmed). */
  rawHeaders?: readonly string[];
  /** Preamble rows above the header row. */
  preamble?: readonly (readonly string[])[];
}

export const MUTUAL_FUND_REFUSAL =
  'This looks like a mutual fund statement. Portfolio Guard tracks shares and ETFs only; mutual funds are not supported yet.';
export const DEPOSITORY_REFUSAL =
  'This looks like a depository holding statement (CDSL or NSDL): it lists your quantities but no buy prices. Download the holdings file from your broker instead; it carries your average buy price.';

export const GENERIC_SYMBOL: Aliases = ['symbol', 'instrument', 'scrip', 'trading symbol', 'tradingsymbol'];
export const GENERIC_QUANTITY: Aliases = ['quantity', 'qty'];
export const GENERIC_PRICE: Aliases = ['buy price', 'average price', 'avg price', 'avg cost'];
const NAME: Aliases = ['company name', 'name', 'stock name'];
const ISIN: Aliases = ['isin', 'isin code', 'isin no'];
const EXCHANGE: Aliases = ['exchange'];

/** The generic template (docs/holdings.md): Symbol, Quantity, Buy Price and an optional Exchange. */
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

const TOTAL_QUANTITY: Aliases = ['total quantity', 'quantity'];
const DEPOSITORY_BALANCE: Aliases = ['current balance', 'current bal', 'free balance', 'free bal'];

/**
 * Recognised layouts, most specific first; `generic` (the generic template) is the fallback.
 * Where each header row comes from: test/fixtures/brokers/README.md.
 */
export const BROKER_FORMATS: readonly BrokerFormat[] = [
  {
    id: 'mutual_fund',
    displayName: 'Mutual fund statement',
    signature: [['scheme name', 'fund name']],
    refusal: MUTUAL_FUND_REFUSAL,
    columns: {
      companyName: ['scheme name', 'fund name'],
      isin: ISIN,
      quantity: [['units']],
      averagePrice: [],
    },
  },
  {
    id: 'depository_statement',
    displayName: 'CDSL/NSDL holding statement',
    signature: [ISIN, DEPOSITORY_BALANCE],
    refusal: DEPOSITORY_REFUSAL,
    columns: {
      companyName: ['isin name', 'security name'],
      isin: ISIN,
      quantity: [DEPOSITORY_BALANCE],
      averagePrice: [],
    },
  },
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
    // HDFC Securities writes the same header row; Groww's file says who it is in its preamble,
    // and Groww spells `Average buy price` in lower case.
    id: 'groww',
    displayName: 'Groww',
    signature: ['stock name', 'isin', 'quantity', 'average buy price'],
    marks: {
      preamble: ['unique client code', 'holdings statement for stocks'],
      exactHeaders: ['Average buy price'],
    },
    columns: {
      companyName: ['stock name'],
      isin: ['isin'],
      quantity: [['quantity']],
      averagePrice: ['average buy price'],
    },
  },
  {
    id: 'hdfc_securities',
    displayName: 'HDFC Securities',
    signature: ['stock name', 'isin', 'quantity', 'average buy price'],
    columns: {
      companyName: ['stock name'],
      isin: ['isin'],
      exchange: EXCHANGE,
      quantity: [['quantity']],
      averagePrice: ['average buy price'],
    },
  },
  {
    id: 'hdfc_securities',
    displayName: 'HDFC Securities',
    signature: ['stock symbol / scrip code', 'buy avg'],
    columns: {
      symbol: ['stock symbol / scrip code'],
      companyName: ['company name'],
      isin: ISIN,
      exchange: EXCHANGE,
      quantity: [['qty', 'quantity']],
      averagePrice: ['buy avg'],
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
    signature: ['scrip/contract', TOTAL_QUANTITY, 'avg trading price'],
    columns: {
      symbol: ['scrip/contract'],
      companyName: ['company name'],
      isin: ['isin'],
      exchange: EXCHANGE,
      quantity: [TOTAL_QUANTITY],
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
    id: 'five_paisa',
    displayName: '5paisa',
    signature: ['scrip name', ['qty', 'quantity'], 'avg rate'],
    columns: {
      symbol: ['scrip name'],
      isin: ISIN,
      exchange: EXCHANGE,
      quantity: [['qty', 'quantity']],
      averagePrice: ['avg rate'],
    },
  },
  {
    id: 'kotak_neo',
    displayName: 'Kotak Neo',
    signature: ['symbol', 'isin', 'quantity', 'avg price', 'change %'],
    columns: {
      symbol: ['symbol'],
      isin: ISIN,
      exchange: EXCHANGE,
      quantity: [['quantity']],
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
const IDENTITY_HEADERS = new Set([
  ...GENERIC_SYMBOL,
  ...NAME,
  ...ISIN,
  'stock symbol',
  'stock symbol / scrip code',
  'scrip/contract',
  'scrip name',
  'scheme name',
  'fund name',
  'isin name',
  'security name',
]);
const QUANTITY_HEADERS = new Set([
  ...GENERIC_QUANTITY,
  ...TOTAL_QUANTITY,
  ...DEPOSITORY_BALANCE,
  'quantity available',
  'net qty',
  'units',
]);

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

/**
 * Picks the layout whose signature the header row carries (and, for a layout with marks, whose
 * marks the file carries too); `generic` when none does.
 */
export function detectBrokerFormat(input: DetectionInput | readonly string[]): BrokerFormat {
  const {
    headers,
    rawHeaders = [],
    preamble = [],
  } = Array.isArray(input) ? { headers: input as readonly string[] } : (input as DetectionInput);
  const present = new Set(headers);
  const has = (header: SignatureHeader): boolean =>
    typeof header === 'string' ? present.has(header) : header.some((alias) => present.has(alias));
  const preambleCells = preamble
    .flat()
    .map(normaliseHeader)
    .filter((cell) => cell !== '');
  const marked = (marks: LayoutMarks): boolean =>
    preambleCells.some((cell) => marks.preamble.some((mark) => cell.startsWith(mark))) ||
    rawHeaders.some((cell) => marks.exactHeaders.includes(cell.trim()));
  const matches = (format: BrokerFormat): boolean =>
    format.signature.length > 0 &&
    format.signature.every(has) &&
    !(format.excludes ?? []).some((header) => present.has(header)) &&
    (format.marks === undefined || marked(format.marks));
  return BROKER_FORMATS.find(matches) ?? GENERIC_FORMAT;
}

/** The display name of a layout, e.g. `Zerodha (Kite)`. */
export function brokerFormatName(id: BrokerFormatId): string {
  return BROKER_FORMATS.find((format) => format.id === id)?.displayName ?? id;
}
