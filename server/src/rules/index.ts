/** Position rules: the API's services, and the in-memory engine that fires them exactly once. */
export {
  createRulesEngine,
  DEFAULT_ENGINE_TUNABLES,
  type RulesEngine,
  type RulesEngineOptions,
  type RulesEngineTunables,
  type RuleLevels,
} from '../triggers/engine.ts';
export { RuleIndex, MovedPeaks, type WatchEntry, type Crossing } from '../triggers/rule-index.ts';
export { createRules, updateRule, type RulesDeps } from './service.ts';
export { setRuleActive, deleteRule, bulkRuleAction } from './activation.ts';
export { listRules, getRule } from './list.ts';
export { currentPrices, latestQuotes } from './quotes.ts';
export { IN_APP_ONLY } from '../triggers/claim.ts';
