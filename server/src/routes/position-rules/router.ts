import Router from '@koa/router';
import {
  bulkCreateRulesBody,
  bulkRuleActionBody,
  createRuleBody,
  currentPricesQuery,
  patchRuleBody,
  updateRuleBody,
  type BulkCreateRulesInput,
  type BulkRuleActionInput,
  type CreateRuleInput,
  type CurrentPricesQuery,
  type PatchRuleInput,
  type UpdateRuleInput,
} from '@app/common/api/rules';
import { EXCHANGES } from '@app/common/instruments/types';
import { z } from 'zod';
import { currentUser, requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { uuidParams } from '../../http/params.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { input, validate } from '../../http/validate.ts';
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

const listQuery = z.object({
  symbol: z.string().trim().toUpperCase().max(40).optional(),
  exchange: z.enum(EXCHANGES).optional(),
});

/** /position-rules (spec §7): exit rules on holdings, armed and checked by the server. */
export function positionRulesRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/position-rules' });
  const writes = rateLimit(
    deps.rateLimiter({ name: 'rules-write', points: 300, durationSeconds: 60 }),
    (ctx) => currentUser(ctx).id,
  );
  router.use(requireUser(deps));

  router.get('/', validate('query', listQuery), async (ctx) => {
    ok(ctx, await listRules(deps.db, currentUser(ctx).id, input<z.infer<typeof listQuery>>(ctx, 'query')));
  });

  router.get('/current-prices', validate('query', currentPricesQuery), async (ctx) => {
    const { symbols, exchange } = input<CurrentPricesQuery>(ctx, 'query');
    ok(ctx, await currentPrices(deps.db, symbols, exchange));
  });

  router.get('/coverage', async (ctx) => {
    ok(ctx, await ruleCoverage(deps.db, currentUser(ctx).id));
  });

  router.post('/', writes, validate('body', createRuleBody), async (ctx) => {
    const rule = input<CreateRuleInput>(ctx, 'body');
    const { rules } = await createRules(deps, { user: currentUser(ctx), rules: [rule], mode: 'single' });
    ok(ctx, rules[0], 201);
  });

  router.post('/bulk', writes, validate('body', bulkCreateRulesBody), async (ctx) => {
    const { rules } = input<BulkCreateRulesInput>(ctx, 'body');
    const created = await createRules(deps, { user: currentUser(ctx), rules, mode: 'bulk' });
    ok(ctx, { created: created.rules.length, rules: created.rules, skipped: created.skipped }, 201);
  });

  router.post('/bulk-action', writes, validate('body', bulkRuleActionBody), async (ctx) => {
    ok(
      ctx,
      await bulkRuleAction(deps, { user: currentUser(ctx), input: input<BulkRuleActionInput>(ctx, 'body') }),
    );
  });

  router.get('/:id', uuidParams('id'), async (ctx) => {
    ok(ctx, await getRule(deps.db, currentUser(ctx).id, ctx.params.id!));
  });

  router.put('/:id', uuidParams('id'), writes, validate('body', updateRuleBody), async (ctx) => {
    const change = input<UpdateRuleInput>(ctx, 'body');
    ok(ctx, await updateRule(deps, { user: currentUser(ctx), id: ctx.params.id!, input: change }));
  });

  router.patch('/:id', uuidParams('id'), writes, validate('body', patchRuleBody), async (ctx) => {
    const { is_active } = input<PatchRuleInput>(ctx, 'body');
    ok(ctx, await setRuleActive(deps, { user: currentUser(ctx), id: ctx.params.id!, isActive: is_active }));
  });

  router.delete('/:id', uuidParams('id'), writes, async (ctx) => {
    ok(ctx, await deleteRule(deps, { user: currentUser(ctx), id: ctx.params.id! }));
  });

  return router;
}
