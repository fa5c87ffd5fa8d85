/** Holdings input: broker CSV import, manual entry and inline edit validation, API payload schemas. */
export { parseCsv, stripBom } from './csv.ts';
export { parseBrokerNumber, parseDecimal } from './numbers.ts';
export { BROKER_FORMATS, brokerFormatName, detectBrokerFormat } from './formats.ts';
export type { BrokerFormat, BrokerFormatId } from './formats.ts';
export { parseHoldingsCsv, parseHoldingsTable, tooManyLines } from './import.ts';
export type { ImportResult } from './import.ts';
export { cleanBrokerSymbol } from './rows.ts';
export type { ImportRow } from './rows.ts';
export { validateManualRows, validateInlineEdit } from './manual.ts';
export type { ManualRowInput, ManualHolding, InlineEditField, InlineEditOutcome } from './manual.ts';
export * from './messages.ts';
export { SAMPLE_CSV } from './sample.ts';
export * from './schemas.ts';
export { quantityProblem, quantityMessage, WHOLE_SHARES } from './quantity.ts';
