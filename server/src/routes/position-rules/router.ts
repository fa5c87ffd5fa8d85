import Router from '@koa/router';
import { backtestBody } from '@app/common/api/backtest';
import {
  bulkCreateRulesBody,
  bulkRuleActionBody,
  createRuleBody,
  currentPricesQuery,
  listRulesQuery,
  patchRuleBody,
  updateRuleBody,
} from '@app/common/api/rules';
import { currentUser, requireUser, limitPerUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { backtestHolding } from '../../history/backtest.ts';
import { ok } from '../../http/envelope.ts';
import { uuidParams } from '../../http/params.ts';
import { jsonBody } from '../../http/json-body.ts';
import { validate, validated } from '../../http/validate.ts';
import {
  bulkRuleAction,
  createRules,
  currentPrices,
  deleteRule,
  getRule,
  listRules,
  setRuleActive,
  updateRule,
} from '../../rules/index.ts';
import { ruleCoverage } from '../../rules/coverage.ts';

/** /position-rules (docs/exit-rules.md, Routes): exit rules on holdings, armed and checked by the server. */
export function positionRulesRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/position-rules' });
  const writes = limitPerUser(deps, { name: 'rules-write', points: 300, durationSeconds: 60 });
  router.use(requireUser(deps));

  router.get('/', validate('query', listRulesQuery), async (ctx) => {
    ok(ctx, await listRules(deps.db, { userId: currentUser(ctx).id, ...validated(ctx, listRulesQuery) }));
  });

  router.get('/current-prices', validate('query', currentPricesQuery), async (ctx) => {
    const { symbols, exchange } = validated(ctx, currentPricesQuery);
    ok(ctx, await currentPrices(deps.db, { symbols, exchange }));
  });

  router.get('/coverage', async (ctx) => {
    ok(ctx, await ruleCoverage(deps.db, currentUser(ctx).id));
  });

  router.post('/', writes, jsonBody('rule'), validate('body', createRuleBody), async (ctx) => {
    const rule = validated(ctx, createRuleBody);
    const { rules } = await createRules(deps, { user: currentUser(ctx), rules: [rule], mode: 'single' });
    ok(ctx, rules[0], 201);
  });

  // Reads up to 7 years of bars a request: a dialog refreshes it as the user types (debounced).
  const backtests = limitPerUser(deps, { name: 'rules-backtest', points: 60, durationSeconds: 60 });
  router.post('/backtest', backtests, jsonBody('backtest'), validate('body', backtestBody), async (ctx) => {
    ok(ctx, await backtestHolding(deps, validated(ctx, backtestBody)));
  });

  router.post('/bulk', writes, jsonBody('rulesBulk'), validate('body', bulkCreateRulesBody), async (ctx) => {
    const { rules } = validated(ctx, bulkCreateRulesBody);
    const created = await createRules(deps, { user: currentUser(ctx), rules, mode: 'bulk' });
    ok(ctx, { created: created.rules.length, rules: created.rules, skipped: created.skipped }, 201);
  });

  router.post(
    '/bulk-action',
    writes,
    jsonBody('rulesBulkAction'),
    validate('body', bulkRuleActionBody),
    async (ctx) => {
      ok(
        ctx,
        await bulkRuleAction(deps, { user: currentUser(ctx), input: validated(ctx, bulkRuleActionBody) }),
      );
    },
  );

  router.get('/:id', uuidParams('id'), async (ctx) => {
    ok(ctx, await getRule(deps.db, { userId: currentUser(ctx).id, id: ctx.params.id! }));
  });

  router.put(
    '/:id',
    uuidParams('id'),
    writes,
    jsonBody('rule'),
    validate('body', updateRuleBody),
    async (ctx) => {
      const change = validated(ctx, updateRuleBody);
      ok(ctx, await updateRule(deps, { user: currentUser(ctx), id: ctx.params.id!, input: change }));
    },
  );

  router.patch(
    '/:id',
    uuidParams('id'),
    writes,
    jsonBody('rule'),
    validate('body', patchRuleBody),
    async (ctx) => {
      const { is_active, level } = validated(ctx, patchRuleBody);
      ok(
        ctx,
        await setRuleActive(deps, { user: currentUser(ctx), id: ctx.params.id!, isActive: is_active, level }),
      );
    },
  );

  router.delete('/:id', uuidParams('id'), writes, async (ctx) => {
    ok(ctx, await deleteRule(deps, { user: currentUser(ctx), id: ctx.params.id! }));
  });

  return router;
}
