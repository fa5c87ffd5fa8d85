import Router from '@koa/router';
import { currentUser, requireUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { NotImplemented } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { uuidParams } from '../../http/params.ts';
import { listBrokerAccounts, ownedAccount } from '../../accounts/broker-accounts.ts';
import { listHoldings } from '../../holdings/list.ts';
import { deleteBrokerAccount } from '../../holdings/service.ts';

const COMING_SOON = 'Broker API connection is coming soon';

/** /brokers: the user's broker accounts (imports and manual), and their holdings. */
export function brokersRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/brokers' });
  router.use(requireUser(deps));
  router.get('/', async (ctx) => {
    ok(ctx, await listBrokerAccounts(deps.db, { userId: currentUser(ctx).id }));
  });
  router.post('/connect', () => {
    throw new NotImplemented(COMING_SOON);
  });
  router.post('/:id/sync', uuidParams('id'), async (ctx) => {
    await ownedAccount(deps.db, { userId: currentUser(ctx).id, accountId: ctx.params.id! });
    throw new NotImplemented(COMING_SOON);
  });
  router.get('/holdings/account/:id', uuidParams('id'), async (ctx) => {
    const user = currentUser(ctx);
    const account = await ownedAccount(deps.db, { userId: user.id, accountId: ctx.params.id! });
    ok(ctx, await listHoldings(deps, { userId: user.id, accountId: account.id }));
  });
  router.delete('/:id', uuidParams('id'), async (ctx) => {
    await deleteBrokerAccount(deps, { userId: currentUser(ctx).id, accountId: ctx.params.id! });
    ok(ctx, { deleted: true, broker_account_id: ctx.params.id });
  });
  return router;
}
