/** Portfolio math: per-holding values, aggregation by symbol+exchange, summary and table order. */
export * from './types.ts';
export { normalizeHolding, toNumber } from './normalize.ts';
export {
  dayChange,
  percentOf,
  positionFigures,
  positionValues,
  round2,
  type PositionFigures,
  type PositionQuote,
  type PositionValues,
} from './position-math.ts';
export { aggregateHoldings, holdingTotals, type HoldingTotals } from './aggregate.ts';
export { ruleCoversAccount } from './rules.ts';
export { coverageSentence, holdingsCoverage, isUnprotected, type Coverage } from './coverage.ts';
export { anyPriced, portfolioSummary, unpricedNote } from './summary.ts';
export { sortHoldings } from './sort.ts';
export type { HoldingSortField, SortDirection } from './sort.ts';
