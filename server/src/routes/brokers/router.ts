import Router from '@koa/router';
import { eq, sql } from 'drizzle-orm';
import { currentUser, requireUser } from '../../auth/require-user.ts';
import { brokerAccounts } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { NotImplemented } from '../../http/errors.ts';
import { ok } from '../../http/envelope.ts';
import { uuidParams } from '../../http/params.ts';
import { ownedAccount } from '../../accounts/broker-accounts.ts';
import { listHoldings } from '../../holdings/list.ts';
import { deleteBrokerAccount } from '../../holdings/service.ts';

const COMING_SOON = 'Broker API connection is coming soon';

/** /brokers: the user's broker accounts (imports and manual), and their holdings. */
export function brokersRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/brokers' });
  router.use(requireUser(deps));
  router.get('/', async (ctx) => {
    const user = currentUser(ctx);
    const rows = await deps.db
      .select({
        a: brokerAccounts,
        holdings: sql<number>`(select count(*)::int from holdings h where h.broker_account_id = "broker_accounts"."id")`,
      })
      .from(brokerAccounts)
      .where(eq(brokerAccounts.userId, user.id))
      .orderBy(brokerAccounts.brokerName, brokerAccounts.accountLabel);
    ok(
      ctx,
      rows.map(({ a, holdings: count }) => ({
        broker_account_id: a.id,
        broker_name: a.brokerName,
        account_label: a.accountLabel,
        display_name: [a.brokerName, a.accountLabel].filter(Boolean).join(' · '),
        broker_type: a.brokerType,
        account_status: a.accountStatus,
        holdings_count: count,
        created_at: a.createdAt.toISOString(),
      })),
    );
  });
  router.post('/connect', () => {
    throw new NotImplemented(COMING_SOON);
  });
  router.post('/:id/sync', uuidParams('id'), async (ctx) => {
    await ownedAccount(deps.db, currentUser(ctx).id, ctx.params.id!);
    throw new NotImplemented(COMING_SOON);
  });
  router.get('/holdings/account/:id', uuidParams('id'), async (ctx) => {
    const user = currentUser(ctx);
    const account = await ownedAccount(deps.db, user.id, ctx.params.id!);
    ok(ctx, await listHoldings(deps, user.id, account.id));
  });
  router.delete('/:id', uuidParams('id'), async (ctx) => {
    const user = currentUser(ctx);
    await deleteBrokerAccount(deps, user.id, ctx.params.id!);
    ok(ctx, { deleted: true, broker_account_id: ctx.params.id });
  });
  return router;
}
