/**
 * Turns parsed import rows (a symbol, an ISIN or only a company name) into instruments
 * of the master. The server always resolves again; the browser's preview is advisory.
 */
import { amountProblem, amountRequirement } from '@app/common/api/numbers';
import { BSE_SCRIP_CODE } from '@app/common/instruments/search';
import type { Exchange } from '@app/common/instruments/types';
import type { InstrumentMaster } from '../instruments/master.ts';

export interface ImportRowInput {
  line: number;
  symbol?: string;
  isin?: string;
  companyName?: string;
  exchange: Exchange;
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
}

export interface Resolution {
  rows: ResolvedRow[];
  problems: string[];
}

const label = (row: ImportRowInput) => row.symbol ?? row.companyName ?? row.isin ?? '?';

/** Resolves every row; a name that matches nothing is a problem the user fixes with the symbol search. */
export function resolveImportRows(master: InstrumentMaster, input: readonly ImportRowInput[]): Resolution {
  const rows: ResolvedRow[] = [];
  const problems: string[] = [];
  for (const row of input) {
    const byIsin = row.isin ? master.findByIsin(row.isin, row.exchange) : undefined;
    if (row.symbol) {
      const direct = master.find(row.symbol, row.exchange) ?? byIsin;
      // A six-digit "symbol" is a BSE scrip code (500325), whatever exchange the row says.
      const byCode = !direct && BSE_SCRIP_CODE.test(row.symbol) ? master.find(row.symbol, 'BSE') : undefined;
      const found = direct ?? byCode;
      const symbol = found?.symbol ?? master.currentSymbol(row.symbol);
      const renamed = !byCode && symbol !== row.symbol.toUpperCase();
      rows.push({
        ...row,
        exchange: found?.exchange ?? row.exchange,
        symbol,
        isin: row.isin ?? found?.isin,
        companyName: found?.name ?? row.companyName ?? symbol,
        known: Boolean(found),
        ...(renamed ? { renamedFrom: row.symbol.toUpperCase() } : {}),
      });
      continue;
    }
    const found = byIsin ?? (row.companyName ? master.findByName(row.companyName, row.exchange) : undefined);
    if (!found) {
      problems.push(
        `Row ${row.line} (${label(row)}): Could not find this stock - choose its symbol with the search`,
      );
      continue;
    }
    rows.push({ ...row, symbol: found.symbol, isin: found.isin, companyName: found.name, known: true });
  }
  return { rows, problems };
}

/** Merges rows of the same instrument (weighted average price), as one holding per account. */
export function mergeDuplicateRows(rows: readonly ResolvedRow[]): ResolvedRow[] {
  const merged = new Map<string, ResolvedRow>();
  for (const row of rows) {
    const key = `${row.exchange}:${row.symbol}`;
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
