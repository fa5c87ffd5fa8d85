import { CSV_MESSAGES } from './messages.ts';
import type { BrokerFormat } from './formats.ts';

/** Column positions of one layout within a concrete header row. */
export interface ColumnPositions {
  symbol?: number;
  companyName?: number;
  isin?: number;
  exchange?: number;
  /** Present quantity columns, summed per row; the first listed alias group is required. */
  quantity: number[];
  averagePrice?: number;
  /** Whether the first (required) quantity column was found. */
  hasQuantity: boolean;
}

/** Locates a layout's columns in a normalised header row. */
export function locateColumns(format: BrokerFormat, headers: readonly string[]): ColumnPositions {
  const find = (aliases: readonly string[] | undefined): number | undefined => {
    for (const alias of aliases ?? []) {
      const index = headers.indexOf(alias);
      if (index >= 0) return index;
    }
    return undefined;
  };
  const { columns } = format;
  const quantityGroups = columns.quantity.map(find);
  return {
    symbol: find(columns.symbol),
    companyName: find(columns.companyName),
    isin: find(columns.isin),
    exchange: find(columns.exchange),
    quantity: quantityGroups.filter((index): index is number => index !== undefined),
    averagePrice: find(columns.averagePrice),
    hasQuantity: quantityGroups[0] !== undefined,
  };
}

/** The "Missing required column" messages (docs/holdings.md) for whatever the header row lacks. */
export function missingColumnMessages(positions: ColumnPositions): string[] {
  const messages: string[] = [];
  const identified = [positions.symbol, positions.companyName, positions.isin].some((i) => i !== undefined);
  if (!identified) messages.push(CSV_MESSAGES.missingSymbol);
  if (!positions.hasQuantity) messages.push(CSV_MESSAGES.missingQuantity);
  if (positions.averagePrice === undefined) messages.push(CSV_MESSAGES.missingPrice);
  return messages;
}
