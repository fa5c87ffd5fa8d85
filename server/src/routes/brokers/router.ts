import Router from '@koa/router';
import { BROKER_IDS, BROKER_NAMES, connectBrokerBody, type ApiBrokerProvider } from '@app/common/api/brokers';
import { currentUser, requireUser, limitPerUser } from '../../auth/require-user.ts';
import type { AppDeps } from '../../deps.ts';
import { ok } from '../../http/envelope.ts';
import { jsonBody } from '../../http/json-body.ts';
import { uuidParams } from '../../http/params.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { validate, validated } from '../../http/validate.ts';
import { listBrokerAccounts, ownedAccount } from '../../accounts/broker-accounts.ts';
import { completeLogin, connectWithToken, startLogin } from '../../brokers/connect.ts';
import { syncAccount } from '../../brokers/sync.ts';
import { listHoldings } from '../../holdings/list.ts';
import { deleteBrokerAccount } from '../../holdings/service.ts';

/**
 * /brokers: the user's broker accounts (imports, manual entry and connected ones), connecting an
 * account over its broker's API (docs/holdings.md#connect-a-broker), syncs, and holdings by account.
 */
export function brokersRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: '/brokers' });
  const signedIn = requireUser(deps);
  const connectLimit = limitPerUser(deps, { name: 'brokers-connect', points: 20, durationSeconds: 3600 });
  // The browser comes back from the broker without the app's token: limited by address.
  const callbackLimit = rateLimit(
    deps.rateLimiter({ name: 'brokers-callback', points: 60, durationSeconds: 600 }),
  );

  router.get('/callback/:broker', callbackLimit, async (ctx) => {
    const query = Object.fromEntries(
      Object.entries(ctx.query).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]),
    );
    ctx.redirect(
      `${deps.config.appUrl}${await completeLogin(deps, { brokerId: ctx.params.broker!, query })}`,
    );
  });
  router.get('/', signedIn, async (ctx) => {
    ok(ctx, await listBrokerAccounts(deps.db, { userId: currentUser(ctx).id }));
  });
  router.get('/providers', signedIn, (ctx) => {
    const providers: ApiBrokerProvider[] = BROKER_IDS.map((id) => {
      const connector = deps.brokers.connectors.get(id);
      return {
        id,
        name: BROKER_NAMES[id],
        configured: id === 'dhan' || connector !== undefined,
        connect: connector?.connect ?? (id === 'dhan' ? 'token' : 'redirect'),
      };
    });
    ok(ctx, providers);
  });
  router.post(
    '/connect',
    signedIn,
    connectLimit,
    jsonBody('brokerConnect'),
    validate('body', connectBrokerBody),
    async (ctx) => {
      const body = validated(ctx, connectBrokerBody);
      const userId = currentUser(ctx).id;
      if ('access_token' in body) {
        const { accountId, sync } = await connectWithToken(deps, {
          userId,
          brokerId: body.broker,
          clientId: body.client_id,
          accessToken: body.access_token,
        });
        ok(ctx, { broker_account_id: accountId, sync });
        return;
      }
      ok(ctx, { login_url: await startLogin(deps, { userId, brokerId: body.broker }) });
    },
  );
  router.post('/:id/sync', signedIn, uuidParams('id'), async (ctx) => {
    const account = await ownedAccount(deps.db, { userId: currentUser(ctx).id, accountId: ctx.params.id! });
    ok(ctx, await syncAccount(deps, account));
  });
  router.get('/holdings/account/:id', signedIn, uuidParams('id'), async (ctx) => {
    const user = currentUser(ctx);
    const account = await ownedAccount(deps.db, { userId: user.id, accountId: ctx.params.id! });
    ok(ctx, await listHoldings(deps, { userId: user.id, accountId: account.id }));
  });
  router.delete('/:id', signedIn, uuidParams('id'), async (ctx) => {
    await deleteBrokerAccount(deps, { userId: currentUser(ctx).id, accountId: ctx.params.id! });
    ok(ctx, { deleted: true, broker_account_id: ctx.params.id });
  });
  return router;
}
