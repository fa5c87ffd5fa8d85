/** Position rules, the API's resource: saving, listing, enabling and deleting them. */
export { createRules, updateRule } from './service.ts';
export { setRuleActive, deleteRule, bulkRuleAction } from './activation.ts';
export { listRules, getRule } from './list.ts';
export { currentPrices } from './quotes.ts';
