/**
 * Triggers: the in-memory engine that fires position rules and price alerts exactly once (the
 * rule index, loading, set-based claims in lanes, trailing peaks, what a firing publishes).
 */
export { createRulesEngine, type RulesEngine, type RulesEngineTunables } from './engine.ts';
