/**
 * Turns parsed import rows (a symbol, an ISIN or only a company name) into instruments
 * of the master. The server always resolves again; the browser's preview is advisory.
 * Rules (docs/holdings.md): a series suffix (`-T`, `-BE`, `-XT`) is dropped when what is left is
 * listed; a file without an exchange column gets each stock's exchange from the master.
 */
import { amountProblem, amountRequirement } from '@app/common/api/numbers';
import { BSE_SCRIP_CODE } from '@app/common/instruments/search';
import { EXCHANGES, type Exchange, type Instrument } from '@app/common/instruments/types';
import { instrumentKey } from '@app/common/market/tick-batch';
import type { InstrumentMaster } from '../instruments/master.ts';

export interface ImportRowInput {
  line: number;
  symbol?: string;
  isin?: string;
  companyName?: string;
  /** The file's exchange, or NSE when the file names none (see exchangeFromFile). */
  exchange: Exchange;
  /** True when the file (or the user) named the exchange: then only that exchange is searched. */
  exchangeFromFile?: boolean;
  quantity: number;
  averagePrice: number;
}

export interface ResolvedRow extends ImportRowInput {
  symbol: string;
  companyName: string;
  /** False when the symbol was taken as given but is not in the master (yet). */
  known: boolean;
  /** The symbol as the file gave it, when a rename moved it (ZOMATO → ETERNAL). */
  renamedFrom?: string;
  /** What the preview should tell the user about this row (a suffix dropped, an exchange kept). */
  note?: string;
  /** For a symbol the master does not list: the listed symbols a typo away ("did you mean RELIANCE?"). */
  suggestions?: Instrument[];
}

export interface Resolution {
  rows: ResolvedRow[];
  problems: string[];
  /** Lines whose ISIN is a fund's (INF…) that the master does not list as an ETF or stock. */
  mutualFundLines: number[];
}

const label = (row: ImportRowInput) => row.symbol ?? row.companyName ?? row.isin ?? '?';
/** A series suffix of one or two letters: `RAJOOENG-T`, `TATAGOLD-E`, `LKPSEC-XT`, `IDEA-BE`. */
const SERIES_SUFFIX = /^(.+)-([A-Z]{1,2})$/;
/** Unknown rows that get "did you mean" suggestions, at most (each is a pass over the master). */
const MAX_SUGGESTED_ROWS = 50;
/** ISINs of mutual fund units and ETFs (ETFs are told apart by the master). */
const FUND_ISIN = /^INF/;

interface Match {
  instrument: Instrument;
  /** The symbol, after a dropped series suffix, by which the row was found. */
  bySymbol?: string;
}

/** The row's instrument on one exchange: by its symbol (as given, then without a series suffix), then its ISIN. */
function findOn(master: InstrumentMaster, row: ImportRowInput, exchange: Exchange): Match | undefined {
  if (row.symbol) {
    const given = row.symbol.toUpperCase();
    const direct = master.find(given, exchange);
    if (direct) return { instrument: direct, bySymbol: given };
    const base = SERIES_SUFFIX.exec(given)?.[1];
    const stripped = base ? master.find(base, exchange) : undefined;
    if (base && stripped) return { instrument: stripped, bySymbol: base };
  }
  const byIsin = row.isin ? master.findByIsin(row.isin, exchange) : undefined;
  return byIsin ? { instrument: byIsin } : undefined;
}

/**
 * The row's instrument: a six-digit symbol is a BSE scrip code (500325) whatever the row says;
 * otherwise the exchanges to search in order (the file's exchange only, when it named one, else
 * NSE then BSE, so that a BSE-only stock lands on BSE); a company name is the last resort.
 */
function findInstrument(
  master: InstrumentMaster,
  row: ImportRowInput,
  exchanges: readonly Exchange[],
): Match | undefined {
  const byCode = row.symbol && BSE_SCRIP_CODE.test(row.symbol) ? master.find(row.symbol, 'BSE') : undefined;
  if (byCode) return { instrument: byCode };
  for (const exchange of exchanges) {
    const match = findOn(master, row, exchange);
    if (match) return match;
  }
  if (!row.companyName) return undefined;
  for (const exchange of exchanges) {
    const byName = master.findByName(row.companyName, exchange);
    if (byName) return { instrument: byName };
  }
  return undefined;
}

/**
 * Resolves every row against the master. A file that names an exchange is taken at its word:
 * a stock missing from that exchange's list stays there as unknown (the preview says where it
 * is listed), never moved silently to the other exchange. A name or ISIN that matches nothing
 * is a problem the user fixes with the symbol search; a fund ISIN (INF…) the master does not
 * list is a mutual fund, which is not supported. A symbol the master does not list is kept, with
 * the listed symbols a typo away as suggestions.
 */
export function resolveImportRows(master: InstrumentMaster, input: readonly ImportRowInput[]): Resolution {
  const rows: ResolvedRow[] = [];
  const problems: string[] = [];
  const mutualFundLines: number[] = [];
  let suggested = 0;
  for (const row of input) {
    const exchanges = row.exchangeFromFile ? [row.exchange] : EXCHANGES;
    const match = findInstrument(master, row, exchanges);
    if (match) {
      rows.push(knownRow(master, row, match));
      continue;
    }
    const elsewhere = row.exchangeFromFile
      ? findInstrument(
          master,
          row,
          EXCHANGES.filter((e) => e !== row.exchange),
        )
      : undefined;
    if (!elsewhere && row.isin && FUND_ISIN.test(row.isin)) {
      mutualFundLines.push(row.line);
      problems.push(`Row ${row.line} (${label(row)}): ${MUTUAL_FUND_ROW}`);
      continue;
    }
    if (row.symbol || elsewhere) {
      const unknown = unknownRow(master, row, elsewhere?.instrument);
      if (!elsewhere && suggested < MAX_SUGGESTED_ROWS) {
        suggested += 1;
        const near = master.nearest(unknown.symbol, row.exchangeFromFile ? { exchange: row.exchange } : {});
        if (near.length > 0) unknown.suggestions = near;
      }
      rows.push(unknown);
      continue;
    }
    problems.push(
      `Row ${row.line} (${label(row)}): Could not find this stock - choose its symbol with the search`,
    );
  }
  return { rows, problems, mutualFundLines };
}

/** A mutual fund row's problem, after `Row N (label): `. */
export const MUTUAL_FUND_ROW = 'this is a mutual fund; mutual funds are not supported yet';

/** True when every row of the file is a mutual fund: the whole file is refused with one sentence. */
export function isMutualFundFile(resolution: Resolution, rowCount: number): boolean {
  return rowCount > 0 && resolution.mutualFundLines.length === rowCount;
}

function knownRow(master: InstrumentMaster, row: ImportRowInput, match: Match): ResolvedRow {
  const { instrument, bySymbol } = match;
  const given = row.symbol?.toUpperCase();
  const suffixDropped = given !== undefined && bySymbol !== undefined && bySymbol !== given;
  const renamed = bySymbol !== undefined && master.currentSymbol(bySymbol) !== bySymbol;
  return {
    ...row,
    exchange: instrument.exchange,
    symbol: instrument.symbol,
    isin: row.isin ?? (instrument.isin || undefined),
    companyName: instrument.name,
    known: true,
    ...(renamed && given ? { renamedFrom: given } : {}),
    ...(suffixDropped ? { note: `Series suffix dropped: ${given}` } : {}),
  };
}

/**
 * A row kept as the file gave it: its symbol (or, for a row named by ISIN or name only, the
 * symbol of the same stock on the other exchange), on the file's exchange, marked unknown.
 */
function unknownRow(master: InstrumentMaster, row: ImportRowInput, elsewhere?: Instrument): ResolvedRow {
  const given = row.symbol?.toUpperCase();
  const symbol = given ? master.currentSymbol(given) : (elsewhere?.symbol ?? '');
  const note = elsewhere
    ? `Not in the ${row.exchange} list; kept on ${row.exchange} as your file says (listed on ${elsewhere.exchange} as ${elsewhere.symbol})`
    : undefined;
  return {
    ...row,
    symbol,
    isin: row.isin ?? (elsewhere?.isin || undefined),
    companyName: elsewhere?.name ?? row.companyName ?? symbol,
    known: false,
    ...(given && symbol !== given ? { renamedFrom: given } : {}),
    ...(note ? { note } : {}),
  };
}

/** Merges rows of the same instrument (weighted average price), as one holding per account. */
export function mergeDuplicateRows(rows: readonly ResolvedRow[]): ResolvedRow[] {
  const merged = new Map<string, ResolvedRow>();
  for (const row of rows) {
    const key = instrumentKey(row.exchange, row.symbol);
    const prior = merged.get(key);
    if (!prior) {
      merged.set(key, { ...row });
      continue;
    }
    const quantity = prior.quantity + row.quantity;
    prior.averagePrice = (prior.averagePrice * prior.quantity + row.averagePrice * row.quantity) / quantity;
    prior.quantity = quantity;
  }
  return [...merged.values()];
}

/** Instruments whose rows, merged, hold more than a holding can store (see mergeDuplicateRows). */
export function mergedQuantityProblems(rows: readonly ResolvedRow[]): string[] {
  return mergeDuplicateRows(rows)
    .filter((row) => amountProblem(row.quantity) === 'tooLarge')
    .map(
      (row) =>
        `${row.symbol} (${row.exchange}): the rows add up to a quantity that ${amountRequirement('tooLarge')}`,
    );
}
