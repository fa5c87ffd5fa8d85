/** Instrument master: exchange file parsers, symbol renames, starter list and symbol search. */
export * from './types.ts';
export {
  isWellFormedSymbol,
  symbolProblem,
  symbolSchema,
  SYMBOL_MESSAGES,
  SYMBOL_MAX_LENGTH,
} from './symbol.ts';
export { parseNseEquityList, parseNseSmeList, parseNseEtfList, parseNseSymbolChanges } from './nse.ts';
export { parseBseScripList } from './bse.ts';
export { decodeMasterFile, MasterFileError } from './table.ts';
export { resolveRenames, currentSymbol } from './renames.ts';
export { yahooSymbol } from './yahoo.ts';
export { buildSearchIndex, searchInstruments } from './search.ts';
export type { SearchIndex, SearchOptions } from './search.ts';
export { nearestSymbols, editDistance } from './nearest.ts';
export { STARTER_INSTRUMENTS } from './starter.ts';
export type { StarterInstrument } from './starter.ts';
export { STARTER_RENAMES } from './starter-renames.ts';
