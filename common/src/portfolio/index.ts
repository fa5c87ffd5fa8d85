/** Portfolio math: per-holding values, aggregation by symbol+exchange, summary and table order. */
export * from './types.ts';
export { normalizeHolding, toNumber } from './normalize.ts';
export { percentOf, positionValues, type PositionValues } from './values.ts';
export { aggregateHoldings } from './aggregate.ts';
export { ruleCoversAccount } from './rules.ts';
export { coverageSentence, holdingsCoverage, isUnprotected, type Coverage } from './coverage.ts';
export { anyPriced, portfolioSummary, unpricedNote } from './summary.ts';
export { sortHoldings } from './sort.ts';
export type { HoldingSortField, SortDirection } from './sort.ts';
