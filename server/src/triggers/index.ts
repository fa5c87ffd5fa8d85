/**
 * Triggers: the in-memory engine that fires position rules and price alerts exactly once (the
 * rule index, loading, set-based claims in lanes, trailing peaks, what a firing publishes).
 */
export {
  createRulesEngine,
  DEFAULT_ENGINE_TUNABLES,
  type RulesEngine,
  type RulesEngineOptions,
  type RulesEngineTunables,
  type RuleLevels,
} from './engine.ts';
export { RuleIndex, MovedPeaks, type WatchEntry, type Crossing } from './rule-index.ts';
export { IN_APP_ONLY } from './claim.ts';
